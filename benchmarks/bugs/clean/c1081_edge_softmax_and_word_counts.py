import torch
from jaxtyping import Float, Int


def edge_softmax(scores: Float[torch.Tensor, "E H"], dst: Int[torch.Tensor, "E"], num_nodes: int) -> Float[torch.Tensor, "E H"]:
    """Softmax of edge scores over the incoming edges of each destination node."""
    H = scores.size(1)
    index = dst.unsqueeze(-1).expand(-1, H)                                   # [E, H]
    node_max = scores.new_full((num_nodes, H), float("-inf"))
    node_max = node_max.scatter_reduce(0, index, scores, reduce="amax", include_self=False)
    shifted = (scores - node_max.gather(0, index)).exp()                      # [E, H]
    denom = scores.new_zeros(num_nodes, H).scatter_add_(0, index, shifted)    # [N, H]
    return shifted / denom.gather(0, index)


def token_counts(ids: Int[torch.Tensor, "B L"], lengths: Int[torch.Tensor, "B"], vocab: int) -> Float[torch.Tensor, "B V"]:
    """Per-row token counts; padding positions (past each length) are not counted."""
    valid = (torch.arange(ids.size(1)).unsqueeze(0) < lengths.unsqueeze(1)).float()  # [B, L]
    return torch.zeros(ids.size(0), vocab).scatter_add_(1, ids, valid)


if __name__ == "__main__":
    torch.manual_seed(0)
    dst = torch.tensor([0, 0, 1, 2, 2, 2, 4])
    scores = torch.randn(7, 3) - 5.0
    alpha = edge_softmax(scores, dst, num_nodes=5)
    for e in range(7):
        for h in range(3):
            same = [f for f in range(7) if int(dst[f]) == int(dst[e])]
            m = max(scores[f, h].item() for f in same)
            z = sum(torch.exp(scores[f, h] - m).item() for f in same)
            assert abs(alpha[e, h].item() - torch.exp(scores[e, h] - m).item() / z) < 1e-6

    ids = torch.tensor([[3, 1, 3, 3, 0], [2, 2, 4, 0, 0]])
    lengths = torch.tensor([4, 3])
    counts = token_counts(ids, lengths, vocab=6)
    for b in range(2):
        ref = [0.0] * 6
        for t in range(int(lengths[b])):
            ref[int(ids[b, t])] += 1
        assert counts[b].tolist() == ref
    print("ok")
