import torch
from torch import nn


def own_centroid_distance(x, centroids, labels):
    # x: [N, D], centroids: [K, D], labels: [N] -> [N]
    dist = torch.cdist(x, centroids)  # [N, K]
    return dist[torch.arange(x.shape[0]), labels]


def project_min_depth(rows, cols, depth, height, width):
    # rows/cols/depth: [P]; several points may share a pixel -> keep the smallest depth
    image = torch.full((height, width), float("inf"))
    image.view(-1).scatter_reduce_(0, rows * width + cols, depth, reduce="amin")
    return image


class PaddedBagEncoder(nn.Module):
    def __init__(self, num_ids: int, dim: int):
        super().__init__()
        self.table = nn.Parameter(torch.randn(num_ids, dim))

    def forward(self, ids):
        # ids: [B, L] padded with -1 -> [B, dim]
        valid = ids >= 0
        emb = self.table[ids.clamp(min=0)]  # [B, L, dim]
        return (emb * valid.unsqueeze(-1)).sum(dim=1)


def slot_sums(tokens, slot_id, num_slots):
    # tokens: [B, N, D], slot_id: [B, N] -> [B, num_slots, D]
    out = tokens.new_zeros(tokens.size(0), num_slots, tokens.size(2))
    return out.scatter_add_(1, slot_id.unsqueeze(-1).expand_as(tokens), tokens)


if __name__ == "__main__":
    torch.manual_seed(0)
    x, c = torch.randn(12, 3), torch.randn(4, 3)
    labels = torch.randint(0, 4, (12,))
    own = own_centroid_distance(x, c, labels)
    for i in range(12):
        assert abs(float(own[i]) - float((x[i] - c[labels[i]]).norm())) < 1e-5

    rows, cols = torch.randint(0, 4, (50,)), torch.randint(0, 5, (50,))
    depth = torch.rand(50) * 10
    img = project_min_depth(rows, cols, depth, 4, 5)
    ref = torch.full((4, 5), float("inf"))
    for p in range(50):
        ref[rows[p], cols[p]] = min(float(ref[rows[p], cols[p]]), float(depth[p]))
    assert torch.equal(img, ref)

    enc = PaddedBagEncoder(10, 3)
    ids = torch.tensor([[1, 4, 9], [2, -1, -1]])
    with torch.no_grad():
        bag = enc(ids)
        for b in range(2):
            acc = torch.zeros(3)
            for t in ids[b].tolist():
                if t >= 0:
                    acc += enc.table[t]
            assert torch.allclose(bag[b], acc, atol=1e-6)

    tokens, slot_id = torch.randn(2, 7, 3), torch.randint(0, 3, (2, 7))
    sums = slot_sums(tokens, slot_id, 3)
    ref = torch.zeros(2, 3, 3)
    for b in range(2):
        for n in range(7):
            ref[b, slot_id[b, n]] += tokens[b, n]
    assert torch.allclose(sums, ref, atol=1e-6)
    print("ok")
