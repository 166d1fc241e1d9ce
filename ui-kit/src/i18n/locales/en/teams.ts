export const teams = {};
