import torch
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


def select_confident_teacher(
    teacher_logits: Float[Tensor, "batch teachers classes"],
    targets: Int[Tensor, "batch"],
) -> Float[Tensor, "batch classes"]:
    """For every example keep the logits of the teacher most confident in the gold class."""
    probs = teacher_logits.softmax(dim=-1)
    gold_idx = targets[:, None, None].expand(-1, probs.size(1), 1)
    gold_prob: Float[Tensor, "batch teachers"] = probs.gather(2, gold_idx).squeeze(-1)
    best: Int[Tensor, "batch"] = gold_prob.argmax(dim=1)
    idx = best[:, None, None].expand(-1, 1, teacher_logits.size(-1))
    return teacher_logits.gather(1, idx).squeeze(1)


def distill_loss(
    student_logits: Float[Tensor, "batch classes"],
    teacher_logits: Float[Tensor, "batch teachers classes"],
    targets: Int[Tensor, "batch"],
    temperature: float = 2.0,
) -> Float[Tensor, ""]:
    teacher = select_confident_teacher(teacher_logits, targets)
    log_p_s = F.log_softmax(student_logits / temperature, dim=-1)
    p_t = F.softmax(teacher / temperature, dim=-1)
    return F.kl_div(log_p_s, p_t, reduction="batchmean") * temperature ** 2


if __name__ == "__main__":
    torch.manual_seed(0)
    teacher_logits = torch.randn(6, 3, 5)
    targets = torch.tensor([0, 4, 2, 1, 3, 2])
    selected = select_confident_teacher(teacher_logits, targets)
    for b in range(6):
        probs = [teacher_logits[b, t].softmax(-1)[targets[b]].item() for t in range(3)]
        t_best = max(range(3), key=lambda t: probs[t])
        assert torch.allclose(selected[b], teacher_logits[b, t_best])
    loss = distill_loss(torch.randn(6, 5), teacher_logits, targets)
    assert torch.isfinite(loss)
    print("ok")
