-- authd schema, version 1: every entity of the product plus the admin fields, team_member,
-- jwks and audit_event. Ids are opaque text made by server/crypto.
-- Secrets at rest are digests: session.token_hash, and the secret part of
-- verification.identifier, hold SHA-256 values, never the tokens themselves.

-- Up Migration

create table "user" (
  id              text primary key,
  email           text not null,
  email_verified  boolean not null default false,
  name            text not null default '',
  image           text,
  role            text,
  banned          boolean not null default false,
  ban_reason      text,
  ban_expires     timestamptz,
  created_at      timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  -- Emails are stored lowercased, so uniqueness is case-insensitive.
  constraint user_email_lowercase check (email = lower(email))
);
create unique index user_email_key on "user" (email);
create index user_created_at_idx on "user" (created_at);

create table organization (
  id          text primary key,
  name        text not null,
  slug        text not null,
  logo        text,
  metadata    jsonb,
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now()
);
create unique index organization_slug_key on organization (slug);

create table team (
  id               text primary key,
  name             text not null check (length(name) >= 1),
  organization_id  text not null references organization (id) on delete cascade,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz
);
-- Team names are the natural key of seed files, so unique within an organization.
create unique index team_organization_name_key on team (organization_id, name);

create table session (
  id                      text primary key,
  user_id                 text not null references "user" (id) on delete cascade,
  token_hash              text not null,
  expires_at              timestamptz not null,
  ip_address              text,
  user_agent              text,
  -- Deleting the active organization clears it on every session.
  active_organization_id  text references organization (id) on delete set null,
  active_team_id          text references team (id) on delete set null,
  impersonated_by         text references "user" (id) on delete cascade,
  created_at              timestamptz not null default now(),
  updated_at              timestamptz not null default now()
);
create unique index session_token_hash_key on session (token_hash);
create index session_user_id_idx on session (user_id);
create index session_expires_at_idx on session (expires_at);

create table account (
  id                        text primary key,
  user_id                   text not null references "user" (id) on delete cascade,
  provider_id               text not null,
  account_id                text not null,
  access_token              text,
  refresh_token             text,
  id_token                  text,
  access_token_expires_at   timestamptz,
  refresh_token_expires_at  timestamptz,
  scope                     text,
  password                  text,
  created_at                timestamptz not null default now(),
  updated_at                timestamptz not null default now()
);
-- One provider identity belongs to exactly one user.
create unique index account_provider_account_key on account (provider_id, account_id);
create index account_user_id_idx on account (user_id);

create table verification (
  id          text primary key,
  identifier  text not null,
  value       text not null,
  expires_at  timestamptz not null,
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now()
);
create index verification_identifier_idx on verification (identifier);
create index verification_expires_at_idx on verification (expires_at);

create table member (
  id               text primary key,
  organization_id  text not null references organization (id) on delete cascade,
  user_id          text not null references "user" (id) on delete cascade,
  role             text not null default 'member',
  created_at       timestamptz not null default now()
);
-- One membership per user and organization.
create unique index member_organization_user_key on member (organization_id, user_id);
create index member_user_id_idx on member (user_id);

create table team_member (
  id          text primary key,
  team_id     text not null references team (id) on delete cascade,
  user_id     text not null references "user" (id) on delete cascade,
  created_at  timestamptz not null default now()
);
create unique index team_member_team_user_key on team_member (team_id, user_id);
create index team_member_user_id_idx on team_member (user_id);

create table invitation (
  id               text primary key,
  organization_id  text not null references organization (id) on delete cascade,
  email            text not null check (email = lower(email)),
  role             text not null default 'member',
  status           text not null default 'pending'
                   check (status in ('pending', 'accepted', 'rejected', 'canceled')),
  team_id          text,
  inviter_id       text not null references "user" (id) on delete cascade,
  expires_at       timestamptz not null,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now()
);
-- At most one pending invitation per address and organization, even under races.
create unique index invitation_pending_email_key on invitation (organization_id, email)
  where status = 'pending';
create index invitation_organization_status_idx on invitation (organization_id, status);
create index invitation_email_status_idx on invitation (email, status);

-- Key-pair records (public and private key, optional expiry).
create table jwks (
  id           text primary key,
  public_key   text not null,
  private_key  text not null,
  created_at   timestamptz not null default now(),
  expires_at   timestamptz
);

-- Admin and security events. Actor and target are plain text (no foreign keys) so the
-- trail outlives the users it mentions.
create table audit_event (
  id               text primary key,
  actor_id         text,
  actor_type       text not null check (actor_type in ('user', 'cli', 'system')),
  action           text not null,
  target_type      text,
  target_id        text,
  organization_id  text,
  ip_address       text,
  user_agent       text,
  details          jsonb,
  created_at       timestamptz not null default now()
);
create index audit_event_created_at_idx on audit_event (created_at);
create index audit_event_actor_idx on audit_event (actor_id, created_at);
create index audit_event_target_idx on audit_event (target_type, target_id, created_at);

-- Down Migration

drop table audit_event;
drop table jwks;
drop table invitation;
drop table team_member;
drop table member;
drop table verification;
drop table account;
drop table session;
drop table team;
drop table organization;
drop table "user";
