export const invitations = {};
