#!/bin/sh
# Run once by Patroni on the first primary (post_bootstrap): the service's role and database.
set -eu
# Patroni passes a connection string to the new primary as the first argument.
psql -v ON_ERROR_STOP=1 "$1" <<SQL
CREATE ROLE cardroom LOGIN PASSWORD '${CARDROOM_DB_PASSWORD}';
CREATE DATABASE cardroom OWNER cardroom;
SQL
