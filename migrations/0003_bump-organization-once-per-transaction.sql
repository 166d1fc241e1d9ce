-- authd schema, version 3: a transaction bumps an organization's content_version once,
-- however many of its member, invitation and team rows it changes. Accepting an
-- invitation (a member inserted, the invitation settled) updated the organization row
-- twice; the second update told nobody anything new, since other sessions only ever
-- see the transaction's end state. A row version written by this very transaction has
-- this transaction's id as its xmin: then the organization is already bumped. (Inside
-- a savepoint the ids differ and it is bumped again, which is merely redundant.)

-- Up Migration

create or replace function authd_bump_organization_of_row() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    update organization set content_version = content_version + 1
    where id = old.organization_id and xmin <> pg_current_xact_id()::xid;
  end if;
  if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.organization_id <> old.organization_id) then
    update organization set content_version = content_version + 1
    where id = new.organization_id and xmin <> pg_current_xact_id()::xid;
  end if;
  return null;
end $$;

-- Down Migration

create or replace function authd_bump_organization_of_row() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    update organization set content_version = content_version + 1
    where id = old.organization_id;
  end if;
  if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.organization_id <> old.organization_id) then
    update organization set content_version = content_version + 1
    where id = new.organization_id;
  end if;
  return null;
end $$;
