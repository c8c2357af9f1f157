"""Validating a workflow graph and deciding the order its processor nodes run in."""

from __future__ import annotations

from sqlalchemy import Connection, select

from fieldwise.service.http.errors import ApiError
from fieldwise.service.resources.processors.tables import processors
from fieldwise.service.resources.workflows.schemas import Edge, Node


def _bad(param: str, message: str) -> ApiError:
    return ApiError(422, f"{param}: {message}", param=param)


def plan(conn: Connection, nodes: list[Node], edges: list[Edge] | None) -> list[str]:
    """Check the graph; return the processor node ids in execution order.

    Rules: unique node ids; exactly one trigger (without ``processor_id``); processor nodes
    name existing processors. Without edges, processor nodes run in the given order. With
    edges, the graph must be acyclic and every processor node reachable from the trigger; nodes
    run in a topological order (ties broken by their position in ``nodes``).
    """
    ids = [n.id for n in nodes]
    for i, node in enumerate(nodes):
        if ids.index(node.id) != i:
            raise _bad(f"nodes[{i}].id", f"duplicate node id {node.id!r}")
        if node.type == "trigger" and node.processor_id is not None:
            raise _bad(f"nodes[{i}].processor_id", "a trigger node takes no processor_id")
        if node.type == "processor":
            if not node.processor_id:
                raise _bad(f"nodes[{i}].processor_id", "a processor node needs a processor_id")
            found = conn.execute(
                select(processors.c.id).where(processors.c.id == node.processor_id)
            ).first()
            if found is None:
                raise _bad(f"nodes[{i}].processor_id", f"no processor {node.processor_id!r}")
    triggers = [n.id for n in nodes if n.type == "trigger"]
    if len(triggers) != 1:
        raise _bad("nodes", f"exactly one trigger node is needed, found {len(triggers)}")
    if edges is None:
        return [n.id for n in nodes if n.type == "processor"]
    successors: dict[str, list[str]] = {node_id: [] for node_id in ids}
    indegree = dict.fromkeys(ids, 0)
    for i, edge in enumerate(edges):
        for end, value in (("from", edge.source), ("to", edge.target)):
            if value not in successors:
                raise _bad(f"edges[{i}].{end}", f"no node {value!r}")
        if edge.target == triggers[0]:
            raise _bad(f"edges[{i}].to", "nothing may lead into the trigger")
        successors[edge.source].append(edge.target)
        indegree[edge.target] += 1
    position = {node_id: i for i, node_id in enumerate(ids)}
    ready = [triggers[0]] + [n for n in ids if indegree[n] == 0 and n != triggers[0]]
    order: list[str] = []
    reached = {triggers[0]}
    while ready:
        ready.sort(key=position.__getitem__)
        current = ready.pop(0)
        order.append(current)
        for nxt in successors[current]:
            if current in reached:
                reached.add(nxt)
            indegree[nxt] -= 1
            if indegree[nxt] == 0:
                ready.append(nxt)
    if len(order) != len(ids):
        raise _bad("edges", "the graph has a cycle")
    kinds = {n.id: n.type for n in nodes}
    unreachable = [n for n in ids if n not in reached and kinds[n] == "processor"]
    if unreachable:
        raise _bad("edges", f"nodes not reachable from the trigger: {', '.join(unreachable)}")
    return [n for n in order if kinds[n] == "processor"]
