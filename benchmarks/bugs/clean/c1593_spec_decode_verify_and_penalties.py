"""Greedy speculative-decoding verification with repetition penalties and hidden-state bookkeeping."""
from typing import List, Tuple

import torch


def get_token_bin_counts(output_ids: torch.Tensor, pad_id: int, vocab_size: int) -> torch.Tensor:
    """Counts how often every vocabulary id occurs in each row.

    Args:
        output_ids (`torch.LongTensor` of shape `(batch_size, max_len)`): generated ids, right-padded with `pad_id`.
        pad_id (`int`): padding id; must be `>= vocab_size` so it lands in an extra bin.
        vocab_size (`int`): size of the vocabulary.

    Returns:
        `torch.LongTensor` of shape `(batch_size, vocab_size)`.
    """
    bins = torch.zeros(output_ids.shape[0], vocab_size + 1, dtype=torch.long)
    bins.scatter_add_(1, output_ids, torch.ones_like(output_ids))
    return bins[:, :vocab_size]


def apply_penalties(
    logits: torch.Tensor, counts: torch.Tensor, frequency_penalty: torch.Tensor, presence_penalty: torch.Tensor
) -> torch.Tensor:
    """OpenAI-style penalties.

    Args:
        logits (`torch.FloatTensor` of shape `(batch_size, vocab_size)`)
        counts (`torch.LongTensor` of shape `(batch_size, vocab_size)`)
        frequency_penalty (`torch.FloatTensor` of shape `(batch_size,)`)
        presence_penalty (`torch.FloatTensor` of shape `(batch_size,)`)
    """
    logits = logits - frequency_penalty[:, None] * counts
    return logits - presence_penalty[:, None] * (counts > 0)


def verify_greedy(
    draft_ids: torch.Tensor, target_logits: torch.Tensor
) -> Tuple[torch.Tensor, torch.Tensor]:
    """Accepts the longest draft prefix that matches the target's greedy choice.

    Args:
        draft_ids (`torch.LongTensor` of shape `(batch_size, num_draft)`)
        target_logits (`torch.FloatTensor` of shape `(batch_size, num_draft + 1, vocab_size)`):
            logits at the last verified position followed by every draft position.

    Returns:
        accept_lens (`torch.LongTensor` of shape `(batch_size,)`): accepted draft tokens plus the bonus token.
        target_ids (`torch.LongTensor` of shape `(batch_size, num_draft + 1)`): target greedy ids.
    """
    target_ids = target_logits.argmax(dim=-1)
    matches = (target_ids[:, :-1] == draft_ids).long()
    accepted = torch.cumprod(matches, dim=1).sum(dim=1)
    return accepted + 1, target_ids


def gather_accepted_hidden(
    hidden: torch.Tensor, accept_lens: torch.Tensor
) -> List[torch.Tensor]:
    """Keeps the hidden states of the accepted positions of every request.

    Args:
        hidden (`torch.FloatTensor` of shape `(batch_size, num_draft + 1, hidden_size)`)
        accept_lens (`torch.LongTensor` of shape `(batch_size,)`)

    Returns:
        list of `batch_size` tensors, the i-th of shape `(accept_lens[i], hidden_size)`.
    """
    batch_size, steps, hidden_size = hidden.shape
    flat = hidden.reshape(batch_size * steps, hidden_size)
    offsets = torch.arange(batch_size) * steps
    keep = torch.arange(steps)[None, :] < accept_lens[:, None]
    rows = (offsets[:, None] + torch.arange(steps)[None, :])[keep]
    accepted = flat.index_select(0, rows)
    return list(torch.split(accepted, accept_lens.tolist(), dim=0))


def last_accepted_hidden(hidden: torch.Tensor, accept_lens: torch.Tensor) -> torch.Tensor:
    """Hidden state at the last accepted position, `(batch_size, hidden_size)`, for the next draft step."""
    index = (accept_lens - 1)[:, None, None].expand(-1, 1, hidden.shape[-1])
    return hidden.gather(1, index).squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    batch_size, num_draft, vocab_size, hidden_size, pad_id = 3, 4, 12, 5, 12

    output_ids = torch.tensor([[3, 3, 7, 1, pad_id], [2, 2, 2, 9, 9], [5, pad_id, pad_id, pad_id, pad_id]])
    counts = get_token_bin_counts(output_ids, pad_id, vocab_size)
    for b in range(batch_size):
        for v in range(vocab_size):
            assert counts[b, v].item() == sum(1 for t in output_ids[b].tolist() if t == v)

    logits = torch.randn(batch_size, vocab_size)
    freq, pres = torch.tensor([0.5, 0.1, 0.0]), torch.tensor([0.2, 0.0, 1.0])
    penalized = apply_penalties(logits, counts, freq, pres)
    for b in range(batch_size):
        for v in range(vocab_size):
            c = counts[b, v].item()
            want = logits[b, v].item() - freq[b].item() * c - (pres[b].item() if c > 0 else 0.0)
            assert abs(penalized[b, v].item() - want) < 1e-6

    target_logits = torch.randn(batch_size, num_draft + 1, vocab_size)
    greedy = target_logits.argmax(-1)
    draft_ids = greedy[:, :-1].clone()
    draft_ids[0, 2] = (draft_ids[0, 2] + 1) % vocab_size
    draft_ids[1, 0] = (draft_ids[1, 0] + 1) % vocab_size
    accept_lens, target_ids = verify_greedy(draft_ids, target_logits)
    for b in range(batch_size):
        n = 0
        while n < num_draft and draft_ids[b, n].item() == target_ids[b, n].item():
            n += 1
        assert accept_lens[b].item() == n + 1
    assert accept_lens.tolist() == [3, 1, 5]

    hidden = torch.randn(batch_size, num_draft + 1, hidden_size)
    per_req = gather_accepted_hidden(hidden, accept_lens)
    last = last_accepted_hidden(hidden, accept_lens)
    for b in range(batch_size):
        n = accept_lens[b].item()
        assert per_req[b].shape == (n, hidden_size)
        for j in range(n):
            assert per_req[b][j].tolist() == hidden[b, j].tolist()
        assert last[b].tolist() == hidden[b, n - 1].tolist()
    print("ok")
