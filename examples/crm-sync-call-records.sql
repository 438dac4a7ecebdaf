-- Tables for examples/crm-sync-call-records.json (PostgreSQL 12 or later).
-- One row per call, keyed by the service's call ID: a call reported twice is updated, never duplicated.
CREATE TABLE IF NOT EXISTS calls (
  call_id            text PRIMARY KEY,
  virtual_number     text,
  caller_number      text,
  destination_phone  text,
  number_description text,
  call_status        text,
  started_at         timestamp,
  ended_at           timestamp,
  duration_sec       integer,
  synced_at          timestamptz NOT NULL DEFAULT now()
);

-- One row per caller: the first and the last call seen, whatever order the calls arrive in.
CREATE TABLE IF NOT EXISTS contacts (
  phone          text PRIMARY KEY,
  first_call_at  timestamp,
  last_call_at   timestamp,
  last_call_id   text,
  synced_at      timestamptz NOT NULL DEFAULT now()
);
