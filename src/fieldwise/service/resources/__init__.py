"""The resources of the service, one folder each: routes, schemas, tables and operations.

A resource may use another one's operations, tables and schemas, never its routes;
``fieldwise.service.app`` is the only module that knows them all."""
