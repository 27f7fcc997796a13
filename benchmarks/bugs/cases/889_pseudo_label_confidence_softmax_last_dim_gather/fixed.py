import torch
import torch.nn.functional as F


def confidence_weighted_ce(student_logits, teacher_logits, threshold=0.0):
    """Cross-pseudo-supervision loss weighted by the teacher's confidence.

    Args:
        student_logits: (B, C, H, W) logits of the student branch.
        teacher_logits: (B, C, H, W) logits of the teacher branch (no gradient).
        threshold: pixels whose teacher confidence is below it are ignored.

    Returns:
        Scalar loss and the (B, H, W) confidence map used as weights.
    """
    with torch.no_grad():
        pseudo = teacher_logits.argmax(dim=1)  # (B, H, W)
        probs = F.softmax(teacher_logits, dim=1)
        conf = probs.gather(1, pseudo.unsqueeze(1)).squeeze(1)  # (B, H, W)
        weight = conf * (conf >= threshold)
    ce = F.cross_entropy(student_logits, pseudo, reduction="none")  # (B, H, W)
    return (weight * ce).sum() / weight.sum().clamp(min=1e-6), conf


if __name__ == "__main__":
    import math

    torch.manual_seed(0)
    student = torch.randn(2, 3, 4, 5)
    teacher = torch.randn(2, 3, 4, 5) * 2
    loss, conf = confidence_weighted_ce(student, teacher, threshold=0.5)
    num = den = 0.0
    for b in range(2):
        for y in range(4):
            for x in range(5):
                t = [float(teacher[b, c, y, x]) for c in range(3)]
                s = [float(student[b, c, y, x]) for c in range(3)]
                k = max(range(3), key=lambda c: t[c])
                pt = math.exp(t[k]) / sum(math.exp(v) for v in t)
                assert abs(float(conf[b, y, x]) - pt) < 1e-5
                w = pt if pt >= 0.5 else 0.0
                ce = -(s[k] - math.log(sum(math.exp(v) for v in s)))
                num += w * ce
                den += w
    assert abs(loss.item() - num / max(den, 1e-6)) < 1e-4
    print("ok")
