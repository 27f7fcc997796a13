import torch
import torch.nn as nn
import torch.nn.functional as F


class TeacherLogitCache:
    """Offline teacher outputs for sparse (top-k) distillation.

    Args:
        num_topk (`int`): number of teacher token ids stored per position.
        max_logprobs (`int`): number of log-probabilities the inference server returns per position.
    """

    def __init__(self, teacher, num_topk, max_logprobs):
        self.teacher = teacher
        self.num_topk = num_topk
        self.max_logprobs = max_logprobs

    @torch.no_grad()
    def build(self, input_ids):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`)

        Returns:
            `dict` with `teacher_topk_ids` of shape `(batch_size, seq_len, num_topk)` and `teacher_topk_logprobs` of
            shape `(batch_size, seq_len, max_logprobs)`, sorted by decreasing probability.
        """
        logprobs = F.log_softmax(self.teacher(input_ids), dim=-1)
        values, ids = logprobs.topk(self.num_topk, dim=-1)
        return {"teacher_topk_ids": ids, "teacher_topk_logprobs": values[..., : self.max_logprobs]}


def sparse_kd_loss(student_logits, teacher_topk_ids, teacher_topk_logprobs, temperature=1.0):
    """KL(teacher || student) restricted to the teacher's top-k tokens.

    Args:
        student_logits (`torch.FloatTensor` of shape `(batch_size, seq_len, vocab_size)`)
        teacher_topk_ids (`torch.LongTensor` of shape `(batch_size, seq_len, k)`)
        teacher_topk_logprobs (`torch.FloatTensor` of shape `(batch_size, seq_len, k)`)

    Returns:
        `torch.FloatTensor`: mean KL per position.
    """
    teacher_logprobs = torch.full_like(student_logits, float("-inf"))
    teacher_logprobs = teacher_logprobs.scatter(-1, teacher_topk_ids, teacher_topk_logprobs)
    teacher_probs = teacher_logprobs.softmax(dim=-1)
    student_logprobs = F.log_softmax(student_logits / temperature, dim=-1)
    kl = teacher_probs * (teacher_probs.clamp_min(1e-12).log() - student_logprobs)
    return kl.sum(-1).mean()


class TinyLM(nn.Module):
    def __init__(self, vocab_size, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab_size)

    def forward(self, input_ids):
        hidden, _ = self.rnn(self.embed(input_ids))
        return self.head(hidden)


if __name__ == "__main__":
    torch.manual_seed(0)
    teacher, student = TinyLM(32, 24), TinyLM(32, 8)
    cache = TeacherLogitCache(teacher, num_topk=16, max_logprobs=8)
    input_ids = torch.randint(0, 32, (2, 5))
    batch = cache.build(input_ids)
    loss = sparse_kd_loss(student(input_ids), batch["teacher_topk_ids"], batch["teacher_topk_logprobs"])
    print("kd loss:", loss.item())
