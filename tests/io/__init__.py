"""Tests of solver/io/: the files a person gives (missions, catalogs, logs, packs), read or refused with the
file and line named."""
