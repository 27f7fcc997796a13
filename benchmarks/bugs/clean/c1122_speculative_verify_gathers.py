import torch


def verify_draft(draft_probs, target_probs, draft_tokens, uniform):
    # draft_probs:  (B, K, V)   probabilities of the draft model at each drafted position
    # target_probs: (B, K+1, V) target model probabilities, one extra position for the bonus token
    # draft_tokens: (B, K)      drafted token ids
    # uniform:      (B, K)      acceptance noise
    B, K, V = draft_probs.shape
    tok = draft_tokens.unsqueeze(-1)                                   # (B, K, 1)
    p = target_probs[:, :K].gather(-1, tok).squeeze(-1)                # (B, K)
    q = draft_probs.gather(-1, tok).squeeze(-1)                        # (B, K)
    accept = uniform < (p / q).clamp(max=1.0)                          # (B, K)
    n_accepted = accept.long().cumprod(dim=1).sum(dim=1)               # (B,) in [0, K]

    # distribution for the next token at position n_accepted
    pos = n_accepted.view(B, 1, 1).expand(B, 1, V)                      # (B, 1, V)
    tgt_next = target_probs.gather(1, pos).squeeze(1)                  # (B, V)
    padded_draft = torch.cat([draft_probs, torch.zeros(B, 1, V)], dim=1)  # (B, K+1, V)
    drf_next = padded_draft.gather(1, pos).squeeze(1)                  # (B, V)
    residual = (tgt_next - drf_next).clamp(min=0.0)
    residual = residual / residual.sum(-1, keepdim=True)
    return n_accepted, residual


def acceptance_stats(n_accepted, draft_tokens, vocab):
    # histogram of accepted lengths, duplicates summed
    K = draft_tokens.size(1)
    hist = torch.zeros(K + 1, dtype=torch.long)
    hist.scatter_add_(0, n_accepted, torch.ones_like(n_accepted))
    # how often each token id was accepted
    keep = torch.arange(K).unsqueeze(0) < n_accepted.unsqueeze(1)      # (B, K)
    per_token = torch.zeros(vocab).index_add_(0, draft_tokens[keep], torch.ones(int(keep.sum())))
    return hist, per_token


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    B, K, V = 4, 3, 6
    draft_probs = torch.softmax(torch.randn(B, K, V, generator=g), -1)
    target_probs = torch.softmax(torch.randn(B, K + 1, V, generator=g), -1)
    draft_tokens = torch.multinomial(draft_probs.view(-1, V), 1, generator=g).view(B, K)
    uniform = torch.rand(B, K, generator=g)
    n_acc, residual = verify_draft(draft_probs, target_probs, draft_tokens, uniform)
    hist, per_token = acceptance_stats(n_acc, draft_tokens, V)

    for b in range(B):
        n = 0
        for k in range(K):
            t = draft_tokens[b, k].item()
            ratio = min(1.0, (target_probs[b, k, t] / draft_probs[b, k, t]).item())
            if uniform[b, k].item() < ratio:
                n += 1
            else:
                break
        assert n_acc[b].item() == n
        d = draft_probs[b, n] if n < K else torch.zeros(V)
        r = (target_probs[b, n] - d).clamp(min=0.0)
        assert torch.allclose(residual[b], r / r.sum(), atol=1e-6)
    ref_hist = [0] * (K + 1)
    ref_tok = [0.0] * V
    for b in range(B):
        ref_hist[n_acc[b].item()] += 1
        for k in range(n_acc[b].item()):
            ref_tok[draft_tokens[b, k].item()] += 1.0
    assert hist.tolist() == ref_hist
    assert per_token.tolist() == ref_tok
    print("ok")
