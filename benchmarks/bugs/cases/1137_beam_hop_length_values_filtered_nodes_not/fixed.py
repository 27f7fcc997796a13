import torch
from jaxtyping import Bool, Float, Int


def propagate(
    scores: Float[torch.Tensor, "B N"], adj: Float[torch.Tensor, "N N"]
) -> Float[torch.Tensor, "B N"]:
    return torch.sigmoid(scores @ adj - 0.5)


def beam_step(
    scores: Float[torch.Tensor, "B N"],
    hops: Int[torch.Tensor, "B N"],
    visited: Bool[torch.Tensor, "B N"],
    hop: int,
    beam: int,
    min_score: float,
) -> Int[torch.Tensor, "B N"]:
    top_score, top_node = scores.masked_fill(visited, -1.0).topk(beam, dim=-1)  # [B, beam]
    confident: Bool[torch.Tensor, "beam"] = (top_score > min_score).all(dim=0)
    new_hops: Int[torch.Tensor, "B k"] = torch.full_like(top_node, hop)[:, confident]
    rows: Int[torch.Tensor, "B 1"] = torch.arange(scores.size(0))[:, None]
    hops[rows, top_node[:, confident]] = new_hops
    visited[rows, top_node[:, confident]] = True
    return hops


def search(adj, heads, num_hops=3, beam=6, min_score=0.55):
    B, N = heads.size(0), adj.size(0)
    scores = torch.zeros(B, N)
    scores[torch.arange(B), heads] = 1.0
    hops = torch.full((B, N), -1, dtype=torch.long)
    visited = torch.zeros(B, N, dtype=torch.bool)
    visited[torch.arange(B), heads] = True
    for hop in range(1, num_hops + 1):
        scores = propagate(scores, adj)
        hops = beam_step(scores, hops, visited, hop, beam, min_score)
    return hops


if __name__ == "__main__":
    g = torch.Generator().manual_seed(3)
    adj = (torch.rand(20, 20, generator=g) < 0.25).float()
    heads = torch.tensor([0, 5, 11])
    hops = search(adj, heads)
    # loop reference
    B, N = 3, 20
    sc = [[0.0] * N for _ in range(B)]
    ref = [[-1] * N for _ in range(B)]
    vis = [[False] * N for _ in range(B)]
    for b in range(B):
        sc[b][int(heads[b])] = 1.0
        vis[b][int(heads[b])] = True
    for hop in range(1, 4):
        new = torch.sigmoid(torch.tensor(sc) @ adj - 0.5).tolist()
        sc = new
        tops = []
        for b in range(B):
            masked = [(-1.0 if vis[b][n] else sc[b][n]) for n in range(N)]
            order = torch.tensor(masked).topk(6).indices.tolist()
            tops.append(order)
        for j in range(6):
            if all(sc[b][tops[b][j]] > 0.55 and not vis[b][tops[b][j]] for b in range(B)):
                for b in range(B):
                    ref[b][tops[b][j]] = hop
                    vis[b][tops[b][j]] = True
    assert hops.tolist() == ref, (hops.tolist(), ref)
    print("ok")
