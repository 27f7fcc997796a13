import torch


class KMeans:
    def __init__(self, num_clusters, num_iters=10, seed=0):
        self.num_clusters = num_clusters
        self.num_iters = num_iters
        self.gen = torch.Generator().manual_seed(seed)
        self.centers = None

    def _assign(self, X):
        return torch.cdist(X, self.centers).argmin(dim=1)

    def _update(self, X, assignment):
        k, d = self.num_clusters, X.size(1)
        sums = torch.zeros(k, d, dtype=X.dtype)
        sums.scatter_add_(0, assignment.unsqueeze(1).expand(-1, d), X)
        counts = torch.zeros(k, dtype=X.dtype)
        counts.scatter_add_(0, assignment, torch.ones(X.size(0), dtype=X.dtype))
        empty = counts == 0
        reseed = X[torch.randint(0, X.size(0), (k,), generator=self.gen)]
        return torch.where(empty.unsqueeze(1), reseed, sums / counts.clamp(min=1).unsqueeze(1))

    def fit(self, X):
        self.centers = X[torch.randperm(X.size(0), generator=self.gen)[: self.num_clusters]].clone()
        for _ in range(self.num_iters):
            self.centers = self._update(X, self._assign(X))
        return self


if __name__ == "__main__":
    torch.manual_seed(0)
    blobs = torch.cat([torch.randn(40, 2) + torch.tensor(c) for c in ([0.0, 0.0], [6.0, 0.0], [0.0, 6.0])])
    km = KMeans(num_clusters=3, num_iters=1)
    km.centers = blobs[[0, 40, 80]].clone()
    assign = km._assign(blobs)
    new = km._update(blobs, assign)
    for c in range(3):
        members = [i for i in range(blobs.size(0)) if assign[i].item() == c]
        assert members
        for j in range(2):
            want = sum(blobs[i, j].item() for i in members) / len(members)
            assert abs(new[c, j].item() - want) < 1e-5
    KMeans(num_clusters=3).fit(blobs)
    print("ok")
