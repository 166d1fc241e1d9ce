-- authd schema, version 4: two indexes on session. Deleting an organization sets
-- session.active_organization_id to null in every session that had it active (the
-- foreign key's on delete set null); without an index on that column each
-- organization delete scans the whole session table. `session list --created-after`
-- and its newest-first order read session.created_at.

-- Up Migration

create index session_active_organization_id_idx on session (active_organization_id);
create index session_created_at_idx on session (created_at);

-- Down Migration

drop index session_created_at_idx;
drop index session_active_organization_id_idx;
