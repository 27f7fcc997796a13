import torch


def apply_penalties(scores, generated, frequency_penalty, presence_penalty):
    # scores: [B, V] logits, generated: [B, T] token ids already sampled
    counts = torch.zeros_like(scores).scatter_add_(
        1, generated, torch.ones_like(generated, dtype=scores.dtype)
    )                                                         # [B, V] occurrences per token
    present = torch.zeros_like(scores).scatter_(1, generated, 1.0)   # [B, V] duplicates write the same 1.0
    return scores - frequency_penalty * counts - presence_penalty * present


def top_k_filter(scores, k):
    # keep the k best logits per row, -inf elsewhere
    top_idx = scores.topk(k, dim=-1).indices                  # [B, k]
    keep = torch.zeros_like(scores, dtype=torch.bool).scatter_(1, top_idx, True)
    return scores.masked_fill(~keep, float("-inf"))


def chosen_logprobs(scores, chosen):
    # chosen: [B] int32 ids from the sampler
    logp = torch.log_softmax(scores, dim=-1)
    return logp.gather(1, chosen.unsqueeze(1).long()).squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, V, T = 3, 11, 7
    scores = torch.randn(B, V)
    generated = torch.randint(0, V, (B, T))
    generated[0, :4] = 2
    out = apply_penalties(scores, generated, 0.3, 0.5)
    for b in range(B):
        seq = generated[b].tolist()
        for v in range(V):
            n = seq.count(v)
            want = scores[b, v].item() - 0.3 * n - (0.5 if n else 0.0)
            assert abs(out[b, v].item() - want) < 1e-6

    filt = top_k_filter(out, 4)
    for b in range(B):
        best = sorted(range(V), key=lambda v: out[b, v].item(), reverse=True)[:4]
        for v in range(V):
            assert (filt[b, v].item() == float("-inf")) == (v not in best)

    chosen = filt.argmax(dim=-1).to(torch.int32)
    lp = chosen_logprobs(filt, chosen)
    for b in range(B):
        row = filt[b]
        finite = [x.item() for x in row if x.item() != float("-inf")]
        m = max(finite)
        lse = m + torch.log(torch.tensor(sum(torch.exp(torch.tensor(x - m)).item() for x in finite))).item()
        assert abs(lp[b].item() - (row[int(chosen[b])].item() - lse)) < 1e-5
    print("ok")
