from dataclasses import dataclass, field
from typing import Optional

import torch


@dataclass
class SamplingParams:
    """Per-request sampling parameters as sent by the client."""

    max_tokens: int = 16
    min_tokens: int = 0
    logprobs: Optional[int] = None
    stop_token_ids: list = field(default_factory=list)

    def __post_init__(self):
        self._all_stop_token_ids = set(self.stop_token_ids)

    @property
    def all_stop_token_ids(self) -> set:
        return self._all_stop_token_ids

    def update_from_tokenizer(self, eos_token_id: int) -> None:
        self._all_stop_token_ids.add(eos_token_id)

    def _validate_logprobs(self, max_logprobs: int) -> None:
        if self.logprobs is not None and self.logprobs > max_logprobs:
            raise ValueError(f"Requested {self.logprobs} logprobs, at most {max_logprobs} allowed.")

    def _validate_stop_token_ids(self, model_vocab_size: int, tokenizer_len: int) -> None:
        """Stop token ids become logits column indices, so they must be < the vocab size."""
        vocab_size = max(model_vocab_size, tokenizer_len)
        invalid = [t for t in self.stop_token_ids if not 0 <= t < vocab_size]
        if invalid:
            raise ValueError(f"stop_token_ids {invalid} out of vocabulary (size {vocab_size}).")

    def verify(self, model_vocab_size: int, tokenizer_len: int, max_logprobs: int = 20) -> None:
        self._validate_logprobs(max_logprobs)
        self._validate_stop_token_ids(model_vocab_size, tokenizer_len)


class MinTokensLogitsProcessor:
    """Inhibit the stop tokens of requests that have not reached min_tokens yet.

    Logits are (num_reqs, vocab_size). ``logits_slice`` is a pair of 1-D index tensors
    (row index of the request, token id), both of shape (num_entries,), so that one
    ``index_put_`` writes -inf into every (request, stop token) cell at once.
    """

    def __init__(self, device: torch.device):
        self.device = device
        # index -> (min_toks, output_token_ids, stop_token_ids)
        self.min_toks: dict = {}
        self.logits_slice = (torch.empty(0, dtype=torch.int32), torch.empty(0, dtype=torch.int32))
        self.neg_inf_tensor = torch.tensor(-float("inf"), dtype=torch.float32, device=device)

    def add_request(self, index: int, params: SamplingParams, output_tok_ids: list) -> None:
        if params.min_tokens and len(output_tok_ids) < params.min_tokens:
            self.min_toks[index] = (params.min_tokens, output_tok_ids, params.all_stop_token_ids)

    def update_state(self) -> None:
        for index in list(self.min_toks):
            min_tok, out_ids, _ = self.min_toks[index]
            if len(out_ids) >= min_tok:
                del self.min_toks[index]
        reqs: list = []
        tok_ids: list = []
        for req, (_, _, stop_tok_ids) in self.min_toks.items():
            reqs.extend([req] * len(stop_tok_ids))
            tok_ids.extend(sorted(stop_tok_ids))
        self.logits_slice = (
            torch.tensor(reqs, dtype=torch.int32, device=self.device),
            torch.tensor(tok_ids, dtype=torch.int32, device=self.device),
        )

    def apply(self, logits: torch.Tensor) -> torch.Tensor:
        """logits: (num_reqs, vocab_size) -> same tensor with stop tokens masked in place."""
        if self.min_toks:
            # Inhibit EOS token for requests which have not reached min length
            logits.index_put_(self.logits_slice, self.neg_inf_tensor)
        return logits


def add_requests(requests, model_vocab_size, tokenizer_len, eos_token_id, processor):
    """Admit each (params, output_ids) pair; returns the batch rows that were scheduled."""
    scheduled = []
    for params, out_ids in requests:
        try:
            params.verify(model_vocab_size, tokenizer_len)
        except ValueError as err:
            print("400 Bad Request:", err)
            continue
        params.update_from_tokenizer(eos_token_id)
        processor.add_request(len(scheduled), params, out_ids)
        scheduled.append((params, out_ids))
    processor.update_state()
    return scheduled


if __name__ == "__main__":
    torch.manual_seed(0)
    model_vocab_size = 129280  # DeepSeek-V4-Flash generation vocabulary
    tokenizer_len = 129280
    eos_token_id = 1

    processor = MinTokensLogitsProcessor(torch.device("cpu"))
    requests = [
        (SamplingParams(max_tokens=300, min_tokens=4), [17, 23]),
        (SamplingParams(max_tokens=300, min_tokens=4, stop_token_ids=[151645]), [5]),
        (SamplingParams(max_tokens=300), [8, 9, 10]),
    ]
    scheduled = add_requests(requests, model_vocab_size, tokenizer_len, eos_token_id, processor)

    logits = torch.randn(len(scheduled), model_vocab_size)
    original = logits.clone()
    logits = processor.apply(logits)

    # reference: mask every stop token of every request still below min_tokens, one cell at a time
    expected = original.clone()
    for row, (params, out_ids) in enumerate(scheduled):
        if params.min_tokens and len(out_ids) < params.min_tokens:
            for tok in params.all_stop_token_ids:
                expected[row, tok] = -float("inf")
    assert len(scheduled) == 2
    assert torch.equal(logits, expected)
    assert logits[0, eos_token_id] == -float("inf") and logits[1, eos_token_id] == original[1, eos_token_id]
    print("ok")
