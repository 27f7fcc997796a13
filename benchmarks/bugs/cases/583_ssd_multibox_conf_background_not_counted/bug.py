import torch
import torch.nn as nn


def log_sum_exp(x):
    x_max = x.max()
    return torch.log(torch.sum(torch.exp(x - x_max), 1, keepdim=True)) + x_max


def match_priors(overlaps, labels, threshold=0.5):
    # overlaps: IoU of every ground-truth box with every prior
    best_truth_overlap, best_truth_idx = overlaps.max(0)
    conf = labels[best_truth_idx] + 1          # shift: class 0 is background
    conf[best_truth_overlap < threshold] = 0
    return conf


class ConfHead(nn.Module):
    def __init__(self, in_channels, num_anchors, num_classes):
        super().__init__()
        self.num_classes = num_classes
        self.conv = nn.Conv2d(in_channels, num_anchors * num_classes, kernel_size=3, padding=1)

    def forward(self, fmap):
        out = self.conv(fmap).permute(0, 2, 3, 1).contiguous()
        return out.view(fmap.size(0), -1, self.num_classes)


class MultiBoxConfLoss(nn.Module):
    def __init__(self, num_classes, neg_pos_ratio=3):
        super().__init__()
        self.num_classes = num_classes
        self.neg_pos_ratio = neg_pos_ratio

    def per_prior_loss(self, conf_data, conf_t):
        batch_conf = conf_data.view(-1, self.num_classes)
        loss_c = log_sum_exp(batch_conf) - batch_conf.gather(1, conf_t.view(-1, 1))
        return loss_c.view(conf_data.size(0), -1)

    def forward(self, conf_data, conf_t):
        loss_c = self.per_prior_loss(conf_data, conf_t).detach().clone()
        pos = conf_t > 0
        loss_c[pos] = 0
        _, loss_idx = loss_c.sort(1, descending=True)
        _, idx_rank = loss_idx.sort(1)
        num_neg = torch.clamp(self.neg_pos_ratio * pos.long().sum(1, keepdim=True), max=pos.size(1) - 1)
        neg = idx_rank < num_neg
        keep = (pos | neg)
        return nn.functional.cross_entropy(conf_data[keep], conf_t[keep], reduction="sum") / pos.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    num_classes = 1                       # a single object class ("person")
    head = ConfHead(in_channels=32, num_anchors=4, num_classes=num_classes)
    criterion = MultiBoxConfLoss(num_classes)
    fmap = torch.randn(2, 32, 5, 5)
    conf_data = head(fmap)                                          # 2 x 100 priors
    targets = []
    for _ in range(2):
        overlaps = torch.rand(3, conf_data.size(1))                 # 3 boxes vs 100 priors
        labels = torch.zeros(3, dtype=torch.long)                   # all "person"
        targets.append(match_priors(overlaps, labels))
    conf_t = torch.stack(targets)
    print("conf loss:", criterion(conf_data, conf_t).item())
