import torch


def engine_context_logprobs(prompt_ids, embed, lm_head):
    # prompt_ids: [L]
    hidden = torch.cumsum(embed[prompt_ids], dim=0)          # [L, H] causal "state"
    return torch.log_softmax(hidden @ lm_head, dim=-1)       # [L, V], row t predicts token t+1


def to_wire_prompt_logprobs(context_logprobs, prompt_ids):
    # context_logprobs: [L, V]; prompt_ids: [L]
    # wire format: index i is the score of prompt token i, index 0 (BOS) has none
    L = prompt_ids.shape[0]
    token_lp = context_logprobs.gather(1, prompt_ids.unsqueeze(1)).squeeze(1)   # [L]
    wire = [None] + [float(v) for v in token_lp[1:L]]
    return wire


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, hidden_size = 50, 16
    embed = torch.randn(vocab, hidden_size) * 0.5     # [V, H]
    lm_head = torch.randn(hidden_size, vocab)         # [H, V]
    prompt_ids = torch.tensor([1, 17, 4, 33, 9, 28])  # [L]

    ctx = engine_context_logprobs(prompt_ids, embed, lm_head)
    wire = to_wire_prompt_logprobs(ctx, prompt_ids)

    ref = [None]
    for t in range(1, prompt_ids.shape[0]):
        ref.append(float(ctx[t - 1, prompt_ids[t]]))
    worst = max(abs(a - b) for a, b in zip(wire[1:], ref[1:]))
    print("wire prompt logprobs:", [None if v is None else round(v, 3) for v in wire])
    print("reference           :", [None if v is None else round(v, 3) for v in ref])
    print("max |diff|:", round(worst, 4))
