"""Batched verification step of speculative decoding (draft model proposes, target model checks)."""
import torch
import torch.nn.functional as F


def exists(v):
    return v is not None


def token_probs(probs, tokens):
    # probs: (batch, seq, vocab), tokens: (batch, seq) -> (batch, seq)
    return probs.gather(-1, tokens.unsqueeze(-1)).squeeze(-1)


def first_true_index(bool_tensor, dim=-1):
    # number of leading False entries; equals the size of dim when nothing is True
    return (bool_tensor.cumsum(dim=dim) == 0).sum(dim=dim)


def select_position(t, positions):
    # t: (batch, seq, vocab), positions: (batch,) -> (batch, vocab)
    index = positions[:, None, None].expand(-1, 1, t.shape[-1])
    return t.gather(1, index).squeeze(1)


def verify_draft(target_probs, draft_probs, draft_tokens, uniform=None, generator=None, pad_id=-1):
    """Accept a prefix of the draft tokens and sample one correction / bonus token.

    target_probs: (batch, gamma + 1, vocab)  target model, including the position after the draft
    draft_probs:  (batch, gamma, vocab)      draft model distributions the tokens were sampled from
    draft_tokens: (batch, gamma)
    returns tokens (batch, gamma + 1) padded with pad_id, and the number accepted (batch,)
    """
    batch, gamma = draft_tokens.shape

    p = token_probs(target_probs[:, :-1], draft_tokens)  # (batch, gamma)
    q = token_probs(draft_probs, draft_tokens)           # (batch, gamma)

    if not exists(uniform):
        uniform = torch.rand(batch, gamma, generator=generator)

    rejected = uniform > (p / q.clamp(min=1e-20))
    num_accepted = first_true_index(rejected)  # (batch,), in [0, gamma]

    # residual distribution max(0, p - q) at the first rejected position; past the draft it is p itself
    draft_padded = F.pad(draft_probs, (0, 0, 0, 1), value=0.)  # (batch, gamma + 1, vocab)
    residual = (select_position(target_probs, num_accepted) - select_position(draft_padded, num_accepted)).clamp(min=0.)
    residual = residual / residual.sum(dim=-1, keepdim=True)

    next_token = torch.multinomial(residual, 1, generator=generator)  # (batch, 1)

    positions = torch.arange(gamma + 1)
    tokens = F.pad(draft_tokens, (0, 1), value=pad_id)
    tokens = tokens.masked_fill(positions[None, :] >= num_accepted[:, None], pad_id)
    tokens = tokens.scatter(1, num_accepted[:, None], next_token)
    return tokens, num_accepted


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, gamma, vocab = 4, 3, 7
    target_probs = torch.randn(batch, gamma + 1, vocab).softmax(-1)
    draft_probs = torch.randn(batch, gamma, vocab).softmax(-1)
    draft_tokens = torch.multinomial(draft_probs.reshape(-1, vocab), 1).reshape(batch, gamma)
    uniform = torch.rand(batch, gamma)
    uniform[0] = 0.  # first row accepts the whole draft

    gen = torch.Generator().manual_seed(1)
    tokens, num_accepted = verify_draft(target_probs, draft_probs, draft_tokens, uniform=uniform, generator=gen)

    gen = torch.Generator().manual_seed(1)
    ref_n = []
    residuals = []
    for b in range(batch):
        n = gamma
        for i in range(gamma):
            tok = draft_tokens[b, i].item()
            if uniform[b, i].item() > target_probs[b, i, tok].item() / draft_probs[b, i, tok].item():
                n = i
                break
        ref_n.append(n)
        if n == gamma:
            res = target_probs[b, gamma].clone()
        else:
            res = torch.tensor([max(target_probs[b, n, v].item() - draft_probs[b, n, v].item(), 0.) for v in range(vocab)])
        residuals.append(res / res.sum())
    ref_next = torch.multinomial(torch.stack(residuals), 1, generator=gen)

    assert num_accepted.tolist() == ref_n
    assert ref_n[0] == gamma
    for b in range(batch):
        n = ref_n[b]
        expected = draft_tokens[b, :n].tolist() + [ref_next[b, 0].item()] + [-1] * (gamma - n)
        assert tokens[b].tolist() == expected, (tokens[b].tolist(), expected)
    print("ok")
