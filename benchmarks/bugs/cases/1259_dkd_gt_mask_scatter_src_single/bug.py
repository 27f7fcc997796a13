import torch
import torch.nn.functional as F


def _get_gt_mask(logits, target):
    # logits: [B, C], target: [B] -> bool mask [B, C], True at the gold class
    target = target.reshape(-1)
    mask = torch.zeros_like(logits).scatter_(1, target.unsqueeze(1), torch.ones(1, 1))
    return mask.bool()


def _get_other_mask(logits, target):
    # complement of the gold mask: [B, C]
    return ~_get_gt_mask(logits, target)


def cat_mask(t, mask1, mask2):
    # t: [B, C] probabilities -> [B, 2] (mass on gold class, mass on the rest)
    t1 = (t * mask1).sum(dim=1, keepdim=True)
    t2 = (t * mask2).sum(dim=1, keepdim=True)
    return torch.cat([t1, t2], dim=1)


def dkd_loss(logits_student, logits_teacher, target, alpha=1.0, beta=8.0, temperature=4.0):
    gt_mask = _get_gt_mask(logits_student, target)          # [B, C]
    other_mask = _get_other_mask(logits_student, target)    # [B, C]
    pred_student = F.softmax(logits_student / temperature, dim=1)
    pred_teacher = F.softmax(logits_teacher / temperature, dim=1)
    pred_student = cat_mask(pred_student, gt_mask, other_mask)   # [B, 2]
    pred_teacher = cat_mask(pred_teacher, gt_mask, other_mask)   # [B, 2]
    tckd = F.kl_div(torch.log(pred_student), pred_teacher, reduction="sum") * temperature ** 2 / target.shape[0]
    # non-target distillation: the gold logit is pushed to -inf before the softmax
    log_ps_nt = F.log_softmax(logits_student / temperature - 1000.0 * gt_mask, dim=1)
    p_t_nt = F.softmax(logits_teacher / temperature - 1000.0 * gt_mask, dim=1)
    nckd = F.kl_div(log_ps_nt, p_t_nt, reduction="sum") * temperature ** 2 / target.shape[0]
    return alpha * tckd + beta * nckd


if __name__ == "__main__":
    torch.manual_seed(0)
    logits_student = torch.randn(8, 10)      # [B, C]
    logits_teacher = torch.randn(8, 10)      # [B, C]
    target = torch.randint(0, 10, (8,))      # [B]
    print(dkd_loss(logits_student, logits_teacher, target))
