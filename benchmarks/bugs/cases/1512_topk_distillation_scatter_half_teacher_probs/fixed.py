import torch
import torch.nn.functional as F


class TopKTeacherCache:
    """Stores the teacher's top-k next-token distribution for every target position.

    The probabilities are kept in half precision to keep the cache small.
    """

    def __init__(self, teacher_logits, k):
        probs = teacher_logits.softmax(dim=-1)
        top_probs, top_idx = probs.topk(k, dim=-1)
        self.indices = top_idx
        self.probs = (top_probs / top_probs.sum(dim=-1, keepdim=True)).half()

    def lookup(self, sample_ids):
        return self.indices[sample_ids], self.probs[sample_ids]


def knowledge_distillation_loss(student_logits, indices, top_k_teacher_probs):
    """Cross entropy of the student against the renormalized top-k teacher distribution.

    Args:
        student_logits (FloatTensor): (batch, tgt_len, vocab) student scores.
        indices (LongTensor): (batch, tgt_len, k) vocabulary ids of the teacher's top-k tokens.
        top_k_teacher_probs (Tensor): (batch, tgt_len, k) their renormalized probabilities.

    Returns:
        (loss, dense teacher distribution of shape (batch, tgt_len, vocab))
    """
    student_lprobs = F.log_softmax(student_logits, dim=-1)
    assert indices.shape[:2] == student_lprobs.shape[:2]
    topk_mask = torch.zeros(student_lprobs.shape).type_as(student_lprobs)
    topk_probs = topk_mask.scatter(2, indices, top_k_teacher_probs.to(topk_mask.dtype))
    loss = -(topk_probs * student_lprobs).sum()
    return loss, topk_probs


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, tgt_len, vocab, k = 4, 6, 30, 5
    cache = TopKTeacherCache(torch.randn(16, tgt_len, vocab), k)
    sample_ids = torch.tensor([3, 0, 9, 12])
    indices, teacher_probs = cache.lookup(sample_ids)
    student_logits = torch.randn(batch, tgt_len, vocab, requires_grad=True)
    loss, dense = knowledge_distillation_loss(student_logits, indices, teacher_probs)
    loss.backward()
    lp = F.log_softmax(student_logits.detach(), dim=-1)
    ref = 0.0
    for b in range(batch):
        for t in range(tgt_len):
            for j in range(k):
                ref -= float(teacher_probs[b, t, j]) * float(lp[b, t, indices[b, t, j]])
    assert abs(loss.item() - ref) < 1e-3
    assert torch.allclose(dense.sum(-1), torch.ones(batch, tgt_len), atol=1e-2)
    print("ok")
