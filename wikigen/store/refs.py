"""Moving a ref by compare-and-swap, waiting out another writer's moment on its lock."""

from __future__ import annotations

import random
import time

import pygit2

from wikigen.model.errors import ConflictError, GitStoreError, LockHeld, environmental

LOCK_WAITS = 12  # tries at a ref another writer has locked; LOCK_PAUSE seconds more each time
LOCK_PAUSE = 0.01


class Refs:
    """The ref moves of :class:`wikigen.store.git.GitStore` (a mixin: the store opens ``repo``)."""

    repo: pygit2.Repository

    def move_ref(self, name: str, new: str, expected: str | None, why: str = "wikigen: publish snapshot") -> None:
        """Compare-and-swap: move ``name`` to ``new`` only if it still points at ``expected``.

        Another writer's lock on the ref is held for a moment (two compiles writing their notes at
        once); the swap waits and tries again, and only a lock still there after ``LOCK_WAITS`` tries
        (one a killed process left) is the machine's error.
        """
        for attempt in range(LOCK_WAITS):
            try:
                return self._swap_ref(name, new, expected, why)
            except LockHeld:
                if attempt == LOCK_WAITS - 1:
                    raise
                time.sleep(LOCK_PAUSE * (attempt + 1) * random.uniform(0.5, 1.5))

    def _swap_ref(self, name: str, new: str, expected: str | None, why: str) -> None:
        try:
            if expected is None:
                self.repo.references.create(name, new, force=False)
                return
            ref = self.repo.references.get(name)
            if ref is None or str(ref.target) != expected:
                raise ConflictError(
                    f"{name} moved while compiling; the late result was rejected, run the compile again"
                )
            ref.set_target(new, why)
        except pygit2.GitError as exc:
            raise ConflictError(
                f"{name} moved while compiling ({exc}); the late result was rejected, run the compile again"
            ) from None
        except pygit2.AlreadyExistsError:
            raise ConflictError(f"{name} was created while compiling; the late result was rejected") from None
        except OSError as exc:  # libgit2 could not lock or write the ref: a writer's moment, or the machine
            raise environmental(f"moving {name}", exc) or GitStoreError(f"git failed while moving {name}: {exc}") from None
