-- authd schema, version 2: organization.content_version, bumped by triggers whenever
-- anything get-full-organization shows changes (the organization, its members and
-- their users' names, emails and images, its invitations and its teams). authd keeps
-- the answers it built under the version they were built from, so a cached answer is
-- served only while nothing it shows has changed, on any instance
-- (server/organization/full-organization.ts).

-- Up Migration

alter table organization add column content_version bigint not null default 0;

-- The organization's own changes: any update that did not set the version itself.
create function authd_organization_touch() returns trigger language plpgsql as $$
begin
  if new.content_version = old.content_version then
    new.content_version := old.content_version + 1;
  end if;
  return new;
end $$;

create trigger organization_content_version before update on organization
  for each row execute function authd_organization_touch();

-- A member, invitation or team row changed: its organization's answer changed.
create function authd_bump_organization_of_row() returns trigger language plpgsql as $$
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

create trigger member_content_version after insert or update or delete on member
  for each row execute function authd_bump_organization_of_row();
create trigger invitation_content_version after insert or update or delete on invitation
  for each row execute function authd_bump_organization_of_row();
create trigger team_content_version after insert or update or delete on team
  for each row execute function authd_bump_organization_of_row();

-- A user's name, email or image shows in every organization they are a member of
-- (locked in id order, as everything else that locks several organizations).
create function authd_bump_organizations_of_user() returns trigger language plpgsql as $$
begin
  update organization set content_version = content_version + 1
  where id in (
    select organization_id from member where user_id = new.id order by organization_id
  );
  return null;
end $$;

create trigger user_content_version after update of name, email, image on "user"
  for each row
  when (old.name is distinct from new.name or old.email is distinct from new.email
        or old.image is distinct from new.image)
  execute function authd_bump_organizations_of_user();

-- Down Migration

drop trigger user_content_version on "user";
drop function authd_bump_organizations_of_user();
drop trigger team_content_version on team;
drop trigger invitation_content_version on invitation;
drop trigger member_content_version on member;
drop function authd_bump_organization_of_row();
drop trigger organization_content_version on organization;
drop function authd_organization_touch();
alter table organization drop column content_version;
