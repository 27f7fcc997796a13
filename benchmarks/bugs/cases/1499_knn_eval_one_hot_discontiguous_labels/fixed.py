import torch
import torch.nn.functional as F


class WeightedKNNClassifier:
    """Weighted k-NN probe on frozen self-supervised features.

    Every test sample votes with its k most similar training samples; a vote is
    weighted by exp(similarity / T).

    Args:
        k (int): number of neighbours.
        T (float): temperature of the vote weights.
    """

    def __init__(self, k: int = 20, T: float = 0.07):
        self.k = k
        self.T = T
        self.train_features, self.train_targets = [], []
        self.test_features, self.test_targets = [], []

    def update(self, train_features=None, train_targets=None, test_features=None, test_targets=None):
        """Stores a batch of features.

        Args:
            train_features (Tensor): (N, D) features of the bank.
            train_targets (LongTensor): (N,) class ids of the bank.
            test_features (Tensor): (M, D) features to classify.
            test_targets (LongTensor): (M,) class ids to classify.
        """
        if train_features is not None:
            self.train_features.append(train_features.detach())
            self.train_targets.append(train_targets.detach())
        if test_features is not None:
            self.test_features.append(test_features.detach())
            self.test_targets.append(test_targets.detach())

    @torch.no_grad()
    def compute(self):
        """Weighted k-NN accuracy.

        Returns:
            Tuple[float, float]: accuracy@1 and accuracy@5, in percent.
        """
        train_features = F.normalize(torch.cat(self.train_features), dim=1)
        train_targets = torch.cat(self.train_targets)
        test_features = F.normalize(torch.cat(self.test_features), dim=1)
        test_targets = torch.cat(self.test_targets)

        # map the (possibly discontiguous) class ids onto 0..num_classes-1
        classes, remapped = torch.unique(torch.cat([train_targets, test_targets]), return_inverse=True)
        train_targets, test_targets = remapped.split([train_targets.size(0), test_targets.size(0)])
        num_classes = classes.numel()
        num_test = test_targets.size(0)
        k = min(self.k, train_targets.size(0))

        similarities, indices = (test_features @ train_features.t()).topk(k, dim=1)
        candidates = train_targets.view(1, -1).expand(num_test, -1)
        retrieved = torch.gather(candidates, 1, indices)

        retrieval_one_hot = torch.zeros(num_test * k, num_classes)
        retrieval_one_hot.scatter_(1, retrieved.view(-1, 1), 1)
        weights = similarities.div(self.T).exp()
        probs = (retrieval_one_hot.view(num_test, k, num_classes) * weights.unsqueeze(-1)).sum(1)

        predictions = probs.argsort(dim=1, descending=True)
        correct = predictions.eq(test_targets.view(-1, 1))
        top1 = correct[:, :1].sum().item() * 100.0 / num_test
        top5 = correct[:, : min(5, num_classes)].sum().item() * 100.0 / num_test
        return top1, top5


def make_split(class_ids, per_class, dim, generator):
    centers = {c: torch.randn(dim, generator=generator) * 0.6 for c in class_ids}
    feats, labels = [], []
    for c in class_ids:
        feats.append(centers[c] + torch.randn(per_class, dim, generator=generator))
        labels.append(torch.full((per_class,), c, dtype=torch.long))
    return torch.cat(feats), torch.cat(labels)


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    # a "vehicles" subset of a 100-class dataset keeps its original class ids
    subset = [8, 13, 48, 58, 81, 85, 89, 90]
    train_x, train_y = make_split(subset, per_class=30, dim=16, generator=g)
    g = torch.Generator().manual_seed(0)
    test_x, test_y = make_split(subset, per_class=10, dim=16, generator=g)
    test_x = test_x + 0.3 * torch.randn(test_x.shape)

    knn = WeightedKNNClassifier(k=10, T=0.1)
    knn.update(train_features=train_x, train_targets=train_y, test_features=test_x, test_targets=test_y)
    acc1, acc5 = knn.compute()

    # plain-Python reference: weighted vote over the k nearest neighbours
    tr = F.normalize(train_x, dim=1)
    te = F.normalize(test_x, dim=1)
    hits1 = hits5 = 0
    for i in range(te.size(0)):
        sims = [(float(te[i] @ tr[j]), int(train_y[j])) for j in range(tr.size(0))]
        sims.sort(key=lambda s: -s[0])
        votes = {}
        for s, c in sims[:10]:
            votes[c] = votes.get(c, 0.0) + float(torch.tensor(s / 0.1).exp())
        ranked = [c for c, _ in sorted(votes.items(), key=lambda kv: -kv[1])]
        hits1 += int(ranked[0] == int(test_y[i]))
        hits5 += int(int(test_y[i]) in ranked[:5])
    ref1 = hits1 * 100.0 / te.size(0)
    ref5 = hits5 * 100.0 / te.size(0)
    assert abs(acc1 - ref1) < 1e-6 and abs(acc5 - ref5) < 1e-6, (acc1, ref1, acc5, ref5)
    print("ok")
