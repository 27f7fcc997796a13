import torch
from jaxtyping import Float, Int
from torch import Tensor


def modify_logits_for_top_p_filtering(logits: Float[Tensor, "*batch vocab"], top_p: float) -> None:
    """Set the logits outside the top-p nucleus to -inf, in place."""
    if top_p <= 0.0 or top_p >= 1.0:
        return
    sorted_logits, sorted_indices = torch.sort(logits, descending=False)
    cumulative_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    sorted_indices_to_remove = cumulative_probs <= (1 - top_p)
    indices_to_remove = sorted_indices_to_remove.scatter(-1, sorted_indices, sorted_indices_to_remove)
    logits.masked_fill_(indices_to_remove, float("-inf"))


def sample_speculative(
    logits: Float[Tensor, "batch seqlen_p1 vocab"],
    logits_draft: Float[Tensor, "batch seqlen vocab"],
    tokens_draft: Int[Tensor, "batch seqlen"],
    top_p: float = 0.0,
    temperature: float = 1.0,
) -> tuple[Int[Tensor, "batch seqlen_p1"], Int[Tensor, "batch"]]:
    logits = logits / temperature
    logits_draft = logits_draft / temperature
    modify_logits_for_top_p_filtering(logits, top_p)
    modify_logits_for_top_p_filtering(logits_draft, top_p)
    probs = torch.softmax(logits, dim=-1)
    probs_draft = torch.softmax(logits_draft, dim=-1)
    p = probs[:, :-1].gather(-1, tokens_draft.unsqueeze(-1)).squeeze(-1)
    q = probs_draft.gather(-1, tokens_draft.unsqueeze(-1)).squeeze(-1)
    accepted = torch.rand_like(q) * q <= p
    num_accepted = accepted.long().cumprod(dim=-1).sum(dim=-1)
    tokens = torch.cat([tokens_draft, tokens_draft.new_zeros(tokens_draft.size(0), 1)], dim=1)
    return tokens, num_accepted


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, seqlen, vocab = 2, 3, 12
    target_logits = torch.randn(batch, seqlen + 1, vocab)
    draft_logits = target_logits[:, :-1] + 0.3 * torch.randn(batch, seqlen, vocab)
    tokens_draft = draft_logits.argmax(dim=-1)
    tokens, num_accepted = sample_speculative(target_logits, draft_logits, tokens_draft, top_p=0.9)
    print("accepted draft tokens per sequence:", num_accepted.tolist())
    filtered = target_logits.clone()
    modify_logits_for_top_p_filtering(filtered, 0.9)
    for b in range(batch):
        for t in range(seqlen + 1):
            row = target_logits[b, t].tolist()
            order = sorted(range(vocab), key=lambda v: row[v])
            probs = torch.softmax(torch.tensor([row[v] for v in order]), dim=0).tolist()
            total = 0.0
            for v, prob in zip(order, probs):
                total += prob
                expected = float("-inf") if total <= 1 - 0.9 else row[v]
                assert filtered[b, t, v].item() == expected or abs(filtered[b, t, v].item() - expected) < 1e-6
    print("ok")
