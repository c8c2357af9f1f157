"""The HTTP edge shared by every resource: errors, middleware, auth, rate limit, pagination,
shared route dependencies and wire-model bases."""
