import torch
import torch.nn as nn
import torch.nn.functional as F


def log_sum_exp(x):
    x_max = x.detach().max()
    return torch.log(torch.sum(torch.exp(x - x_max), 1, keepdim=True)) + x_max


class MultiBoxLoss(nn.Module):
    def __init__(self, num_classes, neg_pos_ratio=3):
        super().__init__()
        self.num_classes = num_classes
        self.negpos_ratio = neg_pos_ratio

    def forward(self, loc_data, conf_data, loc_t, conf_t):
        num = loc_data.size(0)
        pos = conf_t > 0
        num_pos = pos.sum(dim=1, keepdim=True)

        pos_idx = pos.unsqueeze(pos.dim()).expand_as(loc_data)
        loc_p = loc_data[pos_idx].view(-1, 4)
        loc_tt = loc_t[pos_idx].view(-1, 4)
        loss_l = F.smooth_l1_loss(loc_p, loc_tt, reduction="sum")

        # hard negative mining on the per-prior confidence loss
        batch_conf = conf_data.view(-1, self.num_classes)
        loss_c = log_sum_exp(batch_conf) - batch_conf.gather(1, conf_t.view(-1, 1))

        loss_c = loss_c.view(num, -1)
        loss_c[pos] = 0  # filter out pos boxes for now
        _, loss_idx = loss_c.sort(1, descending=True)
        _, idx_rank = loss_idx.sort(1)
        num_pos = pos.long().sum(1, keepdim=True)
        num_neg = torch.clamp(self.negpos_ratio * num_pos, max=pos.size(1) - 1)
        neg = idx_rank < num_neg.expand_as(idx_rank)

        pos_idx = pos.unsqueeze(2).expand_as(conf_data)
        neg_idx = neg.unsqueeze(2).expand_as(conf_data)
        conf_p = conf_data[(pos_idx + neg_idx).gt(0)].view(-1, self.num_classes)
        targets_weighted = conf_t[(pos + neg).gt(0)]
        loss_c = F.cross_entropy(conf_p, targets_weighted, reduction="sum")

        n = num_pos.sum().clamp(min=1).float()
        return loss_l / n, loss_c / n


if __name__ == "__main__":
    torch.manual_seed(0)
    criterion = MultiBoxLoss(num_classes=21)
    loc_data = torch.randn(2, 50, 4)
    conf_data = torch.randn(2, 50, 21)
    loc_t = torch.randn(2, 50, 4)
    conf_t = torch.zeros(2, 50, dtype=torch.long)
    conf_t[0, torch.tensor([3, 17, 40])] = torch.tensor([5, 12, 5])
    conf_t[1, torch.tensor([8, 9])] = torch.tensor([1, 20])
    loss_l, loss_c = criterion(loc_data, conf_data, loc_t, conf_t)

    # reference: per image, keep the positives and the 3 * num_pos negatives with the
    # largest background confidence loss
    ref_l, ref_c, total_pos = 0.0, 0.0, 0
    for b in range(2):
        positives = [i for i in range(50) if conf_t[b, i].item() > 0]
        total_pos += len(positives)
        for i in positives:
            for k in range(4):
                d = abs(loc_data[b, i, k].item() - loc_t[b, i, k].item())
                ref_l += 0.5 * d * d if d < 1 else d - 0.5
        bg_loss = []
        for i in range(50):
            logits = conf_data[b, i]
            lse = torch.logsumexp(logits, 0).item()
            bg_loss.append(0.0 if i in positives else lse - logits[0].item())
        order = sorted(range(50), key=lambda i: -bg_loss[i])
        negatives = set(order[:min(3 * len(positives), 49)])
        for i in range(50):
            if i in positives or i in negatives:
                logits = conf_data[b, i]
                ref_c += torch.logsumexp(logits, 0).item() - logits[conf_t[b, i]].item()
    assert abs(loss_l.item() - ref_l / total_pos) < 1e-4
    assert abs(loss_c.item() - ref_c / total_pos) < 1e-4
    print("ok")
