import torch
import torch.nn as nn


class HashedBagOfWords(nn.Module):
    def __init__(self, num_buckets, num_labels):
        super().__init__()
        self.num_buckets = num_buckets
        self.token_weight = nn.Parameter(torch.rand(num_buckets) + 0.5)
        self.classifier = nn.Linear(num_buckets, num_labels)

    def featurize(self, token_ids, mask):
        buckets = token_ids % self.num_buckets
        w = self.token_weight[buckets] * mask
        bow = torch.zeros(token_ids.shape[0], self.num_buckets)
        bow = bow.scatter_add(1, buckets, w)
        return bow / mask.sum(1, keepdim=True)

    def forward(self, token_ids, mask):
        return self.classifier(self.featurize(token_ids, mask))


def train_step(model, opt, token_ids, mask, labels):
    logits = model(token_ids, mask)
    loss = nn.functional.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = HashedBagOfWords(num_buckets=16, num_labels=3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    token_ids = torch.randint(0, 40, (4, 24))
    mask = torch.ones(4, 24)
    labels = torch.randint(0, 3, (4,))
    with torch.no_grad():
        feats = model.featurize(token_ids, mask)
        for b in range(4):
            ref = [0.0] * 16
            for t in range(24):
                k = token_ids[b, t].item() % 16
                ref[k] += model.token_weight[k].item() * mask[b, t].item()
            n = mask[b].sum().item()
            assert torch.allclose(feats[b], torch.tensor(ref) / n, atol=1e-6)
    train_step(model, opt, token_ids, mask, labels)
    print("ok")
