import torch
import torch.nn.functional as F


class CategoricalTargetEncoder:
    """m-probability target encoding of categorical columns for multiclass targets."""

    def fit(self, x_cat, y):
        # x_cat: (N, C) category ids, y: (N,) class ids
        self.num_classes = int(y.max()) + 1
        onehot = F.one_hot(y, self.num_classes)[:, :-1].float()  # (N, K-1)
        self.target_mean = onehot.mean(dim=0)  # (K-1,)
        self.n_train = x_cat.size(0)
        self.counts = []
        for i in range(x_cat.size(1)):
            col = x_cat[:, i]
            cnt = torch.zeros(int(col.max()) + 1).scatter_add_(0, col, torch.ones(col.size(0)))
            self.counts.append(cnt)  # (num_categories_i,)
        return self

    def transform(self, x_cat):
        # x_cat: (N, C); the class count is the one seen at fit time
        width = self.num_classes - 1
        out = torch.zeros(x_cat.size(0), x_cat.size(1) * width)  # (N, C * (K-1))
        for i, cnt in enumerate(self.counts):
            v = cnt.index_select(0, x_cat[:, i]).unsqueeze(1).repeat(1, width)  # (N, K-1)
            out[:, i * width:(i + 1) * width] = (v + self.target_mean) / (self.n_train + 1)
        return out


def make_split(n, num_classes, cfg, gen):
    x = torch.stack([torch.randint(0, c, (n,), generator=gen) for c in cfg["cardinalities"]], dim=1)
    y = torch.randint(0, num_classes, (n,), generator=gen)
    return x, y


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(0)
    cfg = {"cardinalities": [5, 3, 7]}
    x_train, y_train = make_split(400, 10, cfg, gen)
    # a small evaluation split that happens to contain only hands of class 0..6
    x_test, y_test = make_split(32, 7, cfg, gen)
    enc = CategoricalTargetEncoder().fit(x_train, y_train)
    train_feats = enc.transform(x_train)
    test_feats = enc.transform(x_test)
    K = 10
    assert test_feats.shape == (32, 3 * (K - 1))
    for r in range(32):
        for i in range(3):
            cat = int(x_test[r, i])
            n_cat = sum(1 for rr in range(400) if int(x_train[rr, i]) == cat)
            for k in range(K - 1):
                mean_k = sum(1 for rr in range(400) if int(y_train[rr]) == k) / 400
                expected = (n_cat + mean_k) / 401
                assert abs(test_feats[r, i * (K - 1) + k].item() - expected) < 1e-5
    print("ok")
