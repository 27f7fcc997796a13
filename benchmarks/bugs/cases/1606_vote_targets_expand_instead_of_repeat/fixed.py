import torch


class VoteTargetAssigner:
    def __init__(self, gt_per_seed=3):
        self.gt_per_seed = gt_per_seed

    def points_in_boxes(self, points, centers, sizes):
        rel = (points.unsqueeze(1) - centers.unsqueeze(0)).abs()
        return (rel <= sizes.unsqueeze(0) / 2).all(dim=-1)

    def __call__(self, points, centers, sizes):
        k = self.gt_per_seed
        n = points.size(0)
        vote_targets = points.new_zeros(n, 3 * k)
        vote_count = points.new_zeros(n, dtype=torch.long)
        inside = self.points_in_boxes(points, centers, sizes)
        for i in range(centers.size(0)):
            idx = inside[:, i].nonzero().squeeze(-1)
            votes = centers[i].unsqueeze(0) - points[idx]
            tmp = vote_targets[idx]
            for j in range(k):
                rows = (vote_count[idx] == j).nonzero().squeeze(-1)
                tmp[rows, 3 * j:3 * j + 3] = votes[rows]
                if j == 0:
                    tmp[rows, :3 * k] = votes[rows].repeat(1, k)
            vote_targets[idx] = tmp
            vote_count[idx] = torch.clamp(vote_count[idx] + 1, max=k - 1)
        return vote_targets, inside.any(dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    points = torch.rand(64, 3) * 4.0
    centers = torch.tensor([[1.0, 1.0, 1.0], [1.5, 1.2, 1.0], [3.0, 3.0, 2.0]])
    sizes = torch.tensor([[1.6, 1.6, 1.6], [1.6, 1.6, 1.6], [1.2, 1.2, 1.2]])
    assigner = VoteTargetAssigner(gt_per_seed=3)
    targets, has_obj = assigner(points, centers, sizes)
    k = 3
    for p in range(points.size(0)):
        ref = [0.0] * (3 * k)
        count = 0
        for i in range(centers.size(0)):
            inside = all(abs(points[p, d].item() - centers[i, d].item()) <= sizes[i, d].item() / 2 for d in range(3))
            if not inside:
                continue
            vote = [centers[i, d].item() - points[p, d].item() for d in range(3)]
            ref[3 * count:3 * count + 3] = vote
            if count == 0:
                ref = vote * k
            count = min(count + 1, k - 1)
        assert torch.allclose(targets[p], torch.tensor(ref), atol=1e-6), (p, targets[p], ref)
        assert bool(has_obj[p]) == any(v != 0.0 for v in ref)
    assert int(has_obj.sum()) > 0
    print("ok")
