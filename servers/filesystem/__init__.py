"""A virtual POSIX-like file system with a per-episode shell working directory, stored in the world's database."""
