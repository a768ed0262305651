"""Local moves of the community partition (V3): the parent record brought to a changed semantic graph
by moving only the concepts near the change. Pure over a :class:`GraphView`.

The queue starts with the concepts whose relations changed (``seeds``): a concept that lost its last
relation leaves the record, one that gained its first starts alone. A concept taken from the queue
moves to the neighbouring community (or a new one of its own) that raises modularity most, and when
it moves, its neighbours outside its new community join the queue — Leiden's fast local moves, but
over the change's neighbourhood only, so the cost follows the change, not the graph (the graph is
read through the view one concept at a time). Gains are compared exactly, in integers: for a concept
of degree ``k`` with ``k_c`` relations into community ``c`` of total degree ``Σ_c`` (without it), the
gain of joining ``c`` is ``2m·k_c − k·Σ_c`` (``m``: the graph's total weight); a tie keeps the concept
where it is, else goes to the first community by name. Every move raises modularity, so it ends.
Communities are weighed most linked first, and no further once ``2m·k_c`` is no more than the best
gain (none after can beat it): a hub's neighbours are in most communities, whose totals are then
never read.

A community that lost a member or an inner relation may have come apart. It is checked by searching
from each member next to what was cut, all searches at once, one step each in turn: searches that
meet merge, and one that runs out before meeting the others has found a whole part. The check stops
when one search is left — the rest of the community is one part — so only the small parts are ever
walked, never the large rest. A community that only gained members stays connected.

The communities whose members changed are named as :func:`wikigen.compiler.communities.partition` names them:
the parent's name it overlaps most (one to one, largest overlaps first) where that concept is still a
member, else its most central member. A community whose members did not change keeps its name, and
no other can take it (a name is always a member), so naming only the changed ones names them all.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Protocol

NEW = "\0"  # the prefix of a community made during the moves (never a concept id)


class GraphView(Protocol):
    """The changed semantic graph and the parent record, as the moves read them."""

    def neighbours(self, node: str) -> Mapping[str, int]:
        """The concepts related to ``node`` (not itself) → the relations between the two."""
        ...

    def degrees(self, nodes: Collection[str]) -> Mapping[str, int]:
        """Each node's relations to other concepts (0 for one with none)."""
        ...

    def total(self) -> int:
        """Relations between two different concepts, in the whole graph (its total weight ``m``)."""
        ...

    def names_of(self, nodes: Collection[str]) -> Mapping[str, str]:
        """The parent record's community of each of ``nodes`` that it records."""
        ...

    def members(self, name: str) -> Sequence[str]:
        """The concepts the parent record puts in community ``name``."""
        ...


class _State:
    """The assignment during the moves: the parent record, and each concept that left it or moved."""

    def __init__(self, view: GraphView) -> None:
        self.view = view
        self.parent: dict[str, str | None] = {}
        self.label: dict[str, str | None] = {}  # a concept not here is where the parent put it
        self.arrived: dict[str, set[str]] = {}  # label → the concepts in ``label`` now
        self.departed: dict[str, set[str]] = {}  # label → the concepts that left it
        self.sigma: dict[str, int] = {}  # label → total degree, once asked
        self._degree: dict[str, int] = {}
        self._neighbours: dict[str, dict[str, int]] = {}
        self._made = 0

    def know(self, nodes: Iterable[str], degrees: bool = True) -> None:
        """Read the parent's community (and the degree) of the nodes not known yet, one question each."""
        nodes = set(nodes)
        wanted = sorted(n for n in nodes if n not in self.parent)
        if wanted:
            names = self.view.names_of(wanted)
            self.parent.update((n, names.get(n)) for n in wanted)
        wanted = sorted(n for n in nodes if n not in self._degree) if degrees else []
        if wanted:
            self._degree.update(self.view.degrees(wanted))

    def degree(self, node: str) -> int:
        self.know((node,))
        return self._degree[node]

    def neighbours(self, node: str) -> dict[str, int]:
        if node not in self._neighbours:
            self._neighbours[node] = dict(self.view.neighbours(node))
            self.know(self._neighbours[node], degrees=False)  # a hub's neighbours' degrees are rarely asked
        return self._neighbours[node]

    def current(self, node: str) -> str | None:
        if node in self.label:
            return self.label[node]
        self.know((node,), degrees=False)
        return self.parent[node]

    def members_of_parent(self, name: str) -> list[str]:
        """The parent's members of ``name`` (every one of them known once read)."""
        found = [] if name.startswith(NEW) else list(self.view.members(name))
        for n in found:
            self.parent.setdefault(n, name)
        return found

    def total_of(self, name: str) -> int:
        if name not in self.sigma:
            stay = [n for n in self.members_of_parent(name) if n not in self.label]
            self.know(stay)
            self.sigma[name] = sum(self._degree[n] for n in stay) + sum(
                self.degree(n) for n in self.arrived.get(name, ())
            )
        return self.sigma[name]

    def members_now(self, name: str) -> set[str]:
        stay = {n for n in self.members_of_parent(name) if n not in self.label}
        return stay | self.arrived.get(name, set())

    def fresh_label(self, node: str) -> str:
        self._made += 1
        return f"{NEW}{node}{NEW}{self._made}"

    def put(self, node: str, to: str | None) -> None:
        was = self.current(node)
        k = self.degree(node)
        if was is not None:
            if was in self.sigma:
                self.sigma[was] -= k
            self.arrived.get(was, set()).discard(node)
            self.departed.setdefault(was, set()).add(node)
        self.label[node] = to
        if to is not None:
            if to in self.sigma:
                self.sigma[to] += k
            self.arrived.setdefault(to, set()).add(node)


def local_moves(
    view: GraphView, seeds: Iterable[str], cut: Iterable[tuple[str, str]] = (), recheck: Iterable[str] = ()
) -> dict[str, str | None]:
    """The parent record's changes: concept → its new community's name, ``None`` where a concept is
    no longer recorded (it has no relation now). ``seeds``: the concepts whose relations changed;
    ``cut``: the pairs of concepts that lost a relation between them; ``recheck``: communities to
    check whole, from every member (where what was cut is not known)."""
    state = _State(view)
    seeds = sorted(set(seeds))
    state.know(seeds)
    for n in seeds:
        if state.degree(n) == 0 and state.parent[n] is not None:
            state.put(n, None)  # its last relation is gone: no longer recorded
        elif state.degree(n) > 0 and state.parent[n] is None:
            state.put(n, state.fresh_label(n))  # its first relation: it starts alone
    _move(state, [n for n in seeds if state.current(n) is not None], 2 * view.total())
    parts = _parts(state, cut, recheck)
    return _named(state, parts)


def _move(state: _State, queue_from: list[str], m2: int) -> None:
    queue = deque(queue_from)
    queued = set(queue)
    while queue:
        v = queue.popleft()
        queued.discard(v)
        here = state.current(v)
        assert here is not None
        k = state.degree(v)
        links: dict[str, int] = {}
        for u, w in state.neighbours(v).items():
            c = state.current(u)
            if c is not None:
                links[c] = links.get(c, 0) + w
        best, best_gain = here, m2 * links.get(here, 0) - k * (state.total_of(here) - k)
        # Most linked first: a community's gain is under 2m·k_c (its total degree is at least 1), so
        # once 2m·k_c is no more than the best gain, no community after it can be chosen, and their
        # totals (a hub's neighbours are in most communities) are never read.
        for c in sorted(links, key=lambda c: (-links[c], c)):
            if m2 * links[c] <= best_gain:
                break
            if c != here:
                gain = m2 * links[c] - k * state.total_of(c)
                if gain > best_gain or (gain == best_gain and best != here and c < best):
                    best, best_gain = c, gain
        if best_gain < 0:  # alone (a gain of 0) is better than anywhere it could go
            best = state.fresh_label(v)
        if best == here:
            continue
        state.put(v, best)
        for u in sorted(state.neighbours(v)):
            if u not in queued and state.current(u) != best:
                queue.append(u)
                queued.add(u)


def _parts(
    state: _State, cut: Iterable[tuple[str, str]], recheck: Iterable[str]
) -> list[tuple[str, list[set[str]], set[str]]]:
    """(label, the parts walked, the rest) of every community whose members changed; the rest is
    the one part left unwalked."""
    touch: dict[str, set[str]] = {label: state.members_now(label) for label in recheck}
    for a, b in cut:
        if b in state.neighbours(a):
            continue  # still related: nothing came apart there
        for end in (a, b):
            label = state.current(end)
            if label is not None:
                touch.setdefault(label, set()).add(end)
    for label, gone in state.departed.items():
        for n in gone:
            for u in state.neighbours(n):
                if state.current(u) == label:
                    touch.setdefault(label, set()).add(u)
    for label, came in state.arrived.items():
        if label in state.departed or label in touch:
            touch.setdefault(label, set()).update(came)
    changed = sorted(set(state.departed) | {c for c, came in state.arrived.items() if came} | set(touch))
    found = []
    for label in changed:
        now = state.members_now(label)
        if not now:
            continue
        points = sorted(touch.get(label, set()) & now)
        small = _split(state, now, points) if len(points) > 1 else []
        walked = set().union(*small) if small else set()
        found.append((label, small, now - walked))
    return found


def _split(state: _State, members: set[str], points: list[str]) -> list[set[str]]:
    """The parts of ``members`` that the searches from ``points`` walked whole: all but the one part
    the last running search is in (see the module's docstring)."""
    owner = {p: i for i, p in enumerate(points)}
    root = list(range(len(points)))
    seen: list[set[str]] = [{p} for p in points]
    frontier: list[deque[str]] = [deque([p]) for p in points]
    running = set(range(len(points)))  # the searches not merged into another nor finished

    def find(i: int) -> int:
        while root[i] != i:
            root[i] = root[root[i]]
            i = root[i]
        return i

    done: list[set[str]] = []
    while len(running) > 1:
        for i in sorted(running):
            if i not in running or len(running) == 1:
                continue
            if not frontier[i]:  # walked whole without meeting another: one part
                done.append(seen[i])
                running.discard(i)
                continue
            x = frontier[i].popleft()
            for u in sorted(state.neighbours(x)):
                if u not in members:
                    continue
                if u not in owner:
                    owner[u] = i
                    seen[i].add(u)
                    frontier[i].append(u)
                    continue
                j = find(owner[u])
                if j == i:
                    continue
                # Two searches met: the same part, kept as the larger search (the smaller is merged in)
                big, small = (i, j) if len(seen[i]) >= len(seen[j]) else (j, i)
                root[small] = big
                seen[big] |= seen[small]
                frontier[big].extend(frontier[small])
                seen[small], frontier[small] = set(), deque()
                running.discard(small)
                if small == i:  # this search is the larger's now: it walks the rest of x's neighbours
                    frontier[big].appendleft(x)
                    break
    return done


def community_names(
    parts: Sequence[Collection[str]],
    previous: Callable[[str], str | None],
    strength: Callable[[int], Mapping[str, int]],
) -> list[str]:
    """Each part's name: the parent's name (``previous`` of a member) of the community it overlaps
    most — one to one, largest overlaps first, ties by name then by part — where that named concept
    is still a member of it; else its most central member (``strength`` of part ``i``: each
    member's relations inside it), ties by id. Asked only for the parts no old name fits."""
    part_of = {n: i for i, group in enumerate(parts) for n in group}
    overlap: dict[tuple[int, str], int] = {}
    for i, group in enumerate(parts):
        for n in group:
            old = previous(n)
            if old is not None:
                overlap[(i, old)] = overlap.get((i, old), 0) + 1
    names: dict[int, str] = {}
    taken: set[str] = set()
    for (i, old), _ in sorted(overlap.items(), key=lambda kv: (-kv[1], kv[0][1], kv[0][0])):
        if i in names or old in taken or part_of.get(old) != i:
            continue
        names[i] = old
        taken.add(old)
    for i, group in enumerate(parts):
        if i not in names:
            inner = strength(i)
            names[i] = min(group, key=lambda n: (-inner.get(n, 0), n))
    return [names[i] for i in range(len(parts))]


def _named(state: _State, found: list[tuple[str, list[set[str]], set[str]]]) -> dict[str, str | None]:
    parts: list[set[str]] = []
    for _, small, rest in found:
        parts.extend(small)
        if rest:
            parts.append(rest)
    parts.sort(key=min)
    for group in parts:
        state.know(group, degrees=False)

    def inner(i: int) -> Mapping[str, int]:
        group = parts[i]
        return {n: sum(w for u, w in state.neighbours(n).items() if u in group) for n in group}

    names = community_names(parts, state.parent.get, inner)
    changes: dict[str, str | None] = {n: None for n, to in state.label.items() if to is None and state.parent[n]}
    for i, group in enumerate(parts):
        for n in group:
            if state.parent.get(n) != names[i]:
                changes[n] = names[i]
    return dict(sorted(changes.items()))
