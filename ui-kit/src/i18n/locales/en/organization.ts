export const organization = {};
