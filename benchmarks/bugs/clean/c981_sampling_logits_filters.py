import torch


def apply_repetition_penalty(scores, context_ids, penalty):
    # scores: [B, V] next-token logits; context_ids: [B, T] ids already generated (may repeat)
    picked = torch.gather(scores, 1, context_ids)  # [B, T]
    picked = torch.where(picked < 0, picked * penalty, picked / penalty)
    # repeated ids write the same penalized value, so the overwrite is harmless
    return scores.scatter(1, context_ids, picked)


def top_p_filter(scores, top_p, min_keep=1):
    # scores: [B, V]
    sorted_logits, sorted_idx = torch.sort(scores, descending=True, dim=-1)  # [B, V], [B, V]
    cum = sorted_logits.softmax(dim=-1).cumsum(dim=-1)  # [B, V]
    remove_sorted = cum - sorted_logits.softmax(dim=-1) > top_p
    remove_sorted[:, :min_keep] = False
    # sorted_idx is a permutation of each row, so this scatter has unique targets
    remove = remove_sorted.scatter(1, sorted_idx, remove_sorted)  # [B, V]
    return scores.masked_fill(remove, float("-inf"))


def sequence_logprob(logits, tokens, prompt_len):
    # logits: [B, L, V] for positions 0..L-1; tokens: [B, L]
    logp = logits[:, :-1].log_softmax(dim=-1)  # [B, L-1, V], position t predicts token t+1
    tok_logp = logp.gather(2, tokens[:, 1:].unsqueeze(-1)).squeeze(-1)  # [B, L-1]
    mask = torch.arange(1, tokens.size(1)).unsqueeze(0) >= prompt_len  # [1, L-1]
    return (tok_logp * mask).sum(dim=1)  # [B]


if __name__ == "__main__":
    torch.manual_seed(0)
    B, V, T, L = 3, 11, 6, 7
    scores = torch.randn(B, V) * 2
    context = torch.randint(0, V, (B, T))
    context[0, :3] = 4

    pen = apply_repetition_penalty(scores, context, 1.5)
    for b in range(B):
        seen = set(context[b].tolist())
        for v in range(V):
            x = scores[b, v].item()
            ref = (x * 1.5 if x < 0 else x / 1.5) if v in seen else x
            assert abs(pen[b, v].item() - ref) < 1e-5

    filt = top_p_filter(pen, top_p=0.8)
    for b in range(B):
        probs = pen[b].softmax(-1).tolist()
        order = sorted(range(V), key=lambda v: -pen[b, v].item())
        cum, kept = 0.0, set()
        for rank, v in enumerate(order):
            if rank < 1 or cum <= 0.8:
                kept.add(v)
            cum += probs[v]
        for v in range(V):
            assert (filt[b, v].item() != float("-inf")) == (v in kept)

    logits = torch.randn(B, L, V)
    tokens = torch.randint(0, V, (B, L))
    lp = sequence_logprob(logits, tokens, prompt_len=3)
    for b in range(B):
        ref = 0.0
        for t in range(3, L):
            ref += logits[b, t - 1].log_softmax(-1)[tokens[b, t]].item()
        assert abs(lp[b].item() - ref) < 1e-4
    print("ok")
