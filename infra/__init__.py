"""The platform under the apps: scheduling, news to groups and people, the sockets' shared
behaviour, limits, metrics, the cache and the database's connections. It imports no app."""
