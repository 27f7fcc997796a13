import torch

PLACEHOLDER_TOKEN_ID = -1


def rejection_sample(draft_token_ids, draft_probs, target_probs, uniform, exp_noise):
    """Batched speculative-decoding rejection sampler.

    draft_token_ids: (batch, k) tokens proposed by the draft model
    draft_probs:     (batch, k, vocab) draft distributions the tokens were sampled from
    target_probs:    (batch, k + 1, vocab) target distributions, the last row for the bonus token
    uniform:         (batch, k) U(0, 1) draws for the acceptance tests
    exp_noise:       (batch, vocab) Exp(1) draws for sampling the recovered / bonus token
    Returns (batch, k + 1) output tokens, PLACEHOLDER_TOKEN_ID after the first rejection.
    """
    batch, k = draft_token_ids.shape
    idx = draft_token_ids.unsqueeze(-1)                                    # (batch, k, 1)
    p = draft_probs.gather(-1, idx).squeeze(-1)                           # (batch, k)
    q = target_probs[:, :k].gather(-1, idx).squeeze(-1)                    # (batch, k)
    accepted = uniform < torch.clamp(q / p, max=1.0)                       # (batch, k)
    num_accepted = accepted.long().cumprod(dim=-1).sum(dim=-1)             # (batch,)

    # distribution of the token emitted after the accepted prefix
    padded_draft = torch.cat([draft_probs, torch.zeros_like(draft_probs[:, :1])], dim=1)   # (batch, k + 1, vocab)
    residual = torch.clamp(target_probs - padded_draft, min=0.0)
    gather_idx = num_accepted.view(batch, 1, 1).expand(-1, 1, residual.shape[-1])
    last = residual.gather(1, gather_idx).squeeze(1)                       # (batch, vocab)
    last = last / last.sum(-1, keepdim=True)
    extra_token = (last / exp_noise).argmax(dim=-1)                        # (batch,)

    out = torch.full((batch, k + 1), PLACEHOLDER_TOKEN_ID, dtype=torch.long)
    positions = torch.arange(k + 1).expand(batch, -1)
    keep = positions < num_accepted.unsqueeze(-1)
    out[:, :k] = torch.where(keep[:, :k], draft_token_ids, out[:, :k])
    out.scatter_(1, num_accepted.unsqueeze(-1), extra_token.unsqueeze(-1))
    return out


def reference(draft_token_ids, draft_probs, target_probs, uniform, exp_noise):
    batch, k = draft_token_ids.shape
    rows = []
    for b in range(batch):
        row = []
        n = 0
        for j in range(k):
            tok = int(draft_token_ids[b, j])
            ratio = float(target_probs[b, j, tok] / draft_probs[b, j, tok])
            if float(uniform[b, j]) < min(1.0, ratio):
                row.append(tok)
                n += 1
            else:
                break
        if n < k:
            dist = torch.clamp(target_probs[b, n] - draft_probs[b, n], min=0.0)
        else:
            dist = target_probs[b, k].clone()
        dist = dist / dist.sum()
        row.append(int((dist / exp_noise[b]).argmax()))
        rows.append(row + [PLACEHOLDER_TOKEN_ID] * (k + 1 - len(row)))
    return torch.tensor(rows)


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    batch, k, vocab = 6, 4, 11
    draft_probs = torch.softmax(torch.randn(batch, k, vocab, generator=g) * 2, dim=-1)
    target_probs = torch.softmax(torch.randn(batch, k + 1, vocab, generator=g) * 2, dim=-1)
    draft_token_ids = torch.multinomial(draft_probs.view(-1, vocab), 1, generator=g).view(batch, k)
    uniform = torch.rand(batch, k, generator=g)
    uniform[0] = 0.0   # one row accepts every draft token and takes the bonus path
    exp_noise = torch.empty(batch, vocab).exponential_(generator=g)
    out = rejection_sample(draft_token_ids, draft_probs, target_probs, uniform, exp_noise)
    expected = reference(draft_token_ids, draft_probs, target_probs, uniform, exp_noise)
    assert torch.equal(out, expected), (out, expected)
    print("ok")
