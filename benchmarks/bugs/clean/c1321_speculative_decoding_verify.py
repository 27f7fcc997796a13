import torch


def speculative_verify(target_logits, draft_logits, draft_tokens, uniform):
    """Accept/reject the draft tokens of one speculative-decoding round.

    target_logits: (B, K + 1, V) target scores at the K draft positions plus the bonus position
    draft_logits:  (B, K, V)     draft-model scores that produced draft_tokens
    draft_tokens:  (B, K)
    uniform:       (B, K)        U(0, 1) draws for the acceptance test
    returns n_accepted (B,) and the distribution to sample the next token from (B, V)
    """
    p = target_logits.softmax(dim=-1)  # (B, K + 1, V)
    q = draft_logits.softmax(dim=-1)  # (B, K, V)

    idx = draft_tokens.unsqueeze(-1)  # (B, K, 1)
    p_tok = p[:, :-1].gather(-1, idx).squeeze(-1)  # (B, K)
    q_tok = q.gather(-1, idx).squeeze(-1)  # (B, K)

    accepted = uniform < (p_tok / q_tok).clamp(max=1.0)  # (B, K)
    n_accepted = accepted.long().cumprod(dim=-1).sum(dim=-1)  # (B,) tokens kept before the first rejection

    # target / draft distributions at the first rejected position (the bonus position if all were kept)
    pos = n_accepted.view(-1, 1, 1).expand(-1, 1, p.shape[-1])  # (B, 1, V)
    p_next = p.gather(1, pos).squeeze(1)  # (B, V)
    q_padded = torch.cat([q, torch.zeros_like(q[:, :1])], dim=1)  # (B, K + 1, V)
    q_next = q_padded.gather(1, pos).squeeze(1)  # (B, V)

    residual = (p_next - q_next).clamp(min=0.0)
    residual = residual / residual.sum(dim=-1, keepdim=True)
    return n_accepted, residual


if __name__ == "__main__":
    torch.manual_seed(0)
    B, K, V = 3, 4, 11
    target_logits = torch.randn(B, K + 1, V)
    draft_logits = target_logits[:, :K] + 0.7 * torch.randn(B, K, V)
    draft_tokens = torch.distributions.Categorical(logits=draft_logits).sample()
    uniform = torch.rand(B, K)
    uniform[0] = 0.0  # first row: every draft token is accepted
    n_accepted, residual = speculative_verify(target_logits, draft_logits, draft_tokens, uniform)

    p = target_logits.softmax(-1).tolist()
    q = draft_logits.softmax(-1).tolist()
    for b in range(B):
        n = 0
        for k in range(K):
            t = draft_tokens[b, k].item()
            if uniform[b, k].item() < min(1.0, p[b][k][t] / q[b][k][t]):
                n += 1
            else:
                break
        assert n_accepted[b].item() == n, (b, n_accepted[b].item(), n)
        qrow = q[b][n] if n < K else [0.0] * V
        res = [max(p[b][n][v] - qrow[v], 0.0) for v in range(V)]
        total = sum(res)
        for v in range(V):
            assert abs(residual[b, v].item() - res[v] / total) < 1e-5, (b, v)
    assert n_accepted[0].item() == K
    print("ok")
