import torch


class ClassMeanEstimator:
    def __init__(self, feature_num, class_num):
        self.class_num = class_num
        self.ave = torch.zeros(class_num, feature_num)
        self.amount = torch.zeros(class_num)

    def update(self, features, labels):
        n, a = features.shape
        c = self.class_num
        label_mask = (labels == 255).long()
        labels = ((1 - label_mask) * labels + label_mask * c).long()

        onehot = torch.zeros(n, c)
        onehot.scatter_(1, labels.view(-1, 1), 1)
        weight = onehot.t()  # (C, N)

        sum_weight = weight.sum(1)
        ave_batch = weight @ features / sum_weight.clamp(min=1).unsqueeze(1)
        total = self.amount + sum_weight
        share = (sum_weight / total.clamp(min=1)).unsqueeze(1)
        self.ave = self.ave * (1 - share) + ave_batch * share
        self.amount = total


def pixel_batch(batch, h, w, feature_num, class_num, seed):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(batch, feature_num, h, w, generator=g)
    labels = torch.randint(0, class_num, (batch, h, w), generator=g)
    labels[:, :2, :] = 255  # void border
    feats = feats.permute(0, 2, 3, 1).reshape(-1, feature_num)
    return feats, labels.reshape(-1)


if __name__ == "__main__":
    est = ClassMeanEstimator(feature_num=16, class_num=19)
    for step in range(3):
        f, y = pixel_batch(2, 6, 6, 16, 19, seed=step)
        est.update(f, y)
    print(est.amount, est.ave[:3, :4])
