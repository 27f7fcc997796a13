import torch


def global_mean_pool(x, batch, num_graphs):
    # x: [N, F] node features, batch: [N] graph id of every node
    index = batch.unsqueeze(-1).expand_as(x)  # [N, F]
    summed = torch.zeros(num_graphs, x.size(1)).scatter_add_(0, index, x)  # [G, F]
    counts = torch.zeros(num_graphs).index_add_(0, batch, torch.ones_like(batch, dtype=x.dtype))  # [G]
    return summed / counts.clamp(min=1).unsqueeze(-1)  # [G, F]


def global_max_pool(x, batch, num_graphs):
    # x: [N, F], batch: [N]
    index = batch.unsqueeze(-1).expand_as(x)  # [N, F]
    out = torch.full((num_graphs, x.size(1)), float("-inf"))
    return out.scatter_reduce(0, index, x, reduce="amax", include_self=True)  # [G, F]


def reorder_beam_state(state, backpointers, beam_size):
    # state: [B * K, H] decoder state, backpointers: [B, K] beam each new hypothesis came from
    batch_size = backpointers.size(0)
    offsets = torch.arange(batch_size).unsqueeze(1) * beam_size  # [B, 1]
    flat = (backpointers + offsets).view(-1)  # [B * K]
    return state.index_select(0, flat)  # [B * K, H]


def sequence_logprob(logits, tokens, mask):
    # logits: [B, T, V] predictions for the next token, tokens: [B, T], mask: [B, T]
    logprobs = torch.log_softmax(logits[:, :-1], dim=-1)  # [B, T-1, V]
    targets = tokens[:, 1:]  # [B, T-1]
    picked = logprobs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)  # [B, T-1]
    return (picked * mask[:, 1:]).sum(dim=-1)  # [B]


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(9, 4)
    batch = torch.tensor([0, 0, 1, 1, 1, 2, 2, 2, 2])
    mean = global_mean_pool(x, batch, 3)
    mx = global_max_pool(x, batch, 3)
    for g in range(3):
        rows = [x[i] for i in range(9) if batch[i] == g]
        assert torch.allclose(mean[g], sum(rows) / len(rows), atol=1e-6)
        for f in range(4):
            assert mx[g, f].item() == max(r[f].item() for r in rows)

    B, K, H = 2, 3, 5
    state = torch.randn(B * K, H)
    backpointers = torch.tensor([[2, 0, 0], [1, 1, 2]])
    new_state = reorder_beam_state(state, backpointers, K)
    for b in range(B):
        for k in range(K):
            assert torch.equal(new_state[b * K + k], state[b * K + backpointers[b, k].item()])

    T, V = 6, 11
    logits = torch.randn(B, T, V)
    tokens = torch.randint(0, V, (B, T))
    mask = torch.tensor([[1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 0, 0]], dtype=torch.float32)
    scores = sequence_logprob(logits, tokens, mask)
    for b in range(B):
        total = 0.0
        for t in range(1, T):
            if mask[b, t] > 0:
                total += torch.log_softmax(logits[b, t - 1], dim=-1)[tokens[b, t]].item()
        assert abs(scores[b].item() - total) < 1e-4
    print("ok")
