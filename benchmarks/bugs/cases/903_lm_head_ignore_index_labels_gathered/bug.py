import torch
import torch.nn as nn
import torch.nn.functional as F


class ProjectedSoftmaxHead(nn.Module):
    def __init__(self, d_model, d_proj, vocab_size):
        super().__init__()
        self.proj = nn.Linear(d_model, d_proj, bias=False)
        self.out = nn.Linear(d_proj, vocab_size)

    def forward(self, hidden, labels=None):
        """
        Args:
            hidden (`torch.FloatTensor` of shape `(batch_size, seq_len, d_model)`):
                Last hidden states of the decoder.
            labels (`torch.LongTensor` of shape `(batch_size, seq_len)`, *optional*):
                Target token ids. All labels set to `-100` are ignored (masked), the loss is only
                computed for labels in `[0, ..., vocab_size - 1]`.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, seq_len - 1)` with the per-token negative
            log-likelihood, or the log-probabilities of shape `(batch_size, seq_len, vocab_size)`.
        """
        logprob = F.log_softmax(self.out(self.proj(hidden)), dim=-1)
        if labels is None:
            return logprob
        logprob = logprob[:, :-1].reshape(-1, logprob.size(-1))
        target = labels[:, 1:].reshape(-1)
        nll = -logprob.gather(1, target.unsqueeze(1)).squeeze(1)
        return nll.view(labels.size(0), -1)


def lm_loss(head, hidden, labels):
    nll = head(hidden, labels=labels)
    mask = labels[:, 1:] != -100
    return (nll * mask).sum() / mask.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    head = ProjectedSoftmaxHead(d_model=16, d_proj=8, vocab_size=50)
    hidden = torch.randn(2, 6, 16)
    labels = torch.tensor([[5, 9, 12, 3, -100, -100], [7, 1, 44, 20, 8, 2]])
    print("loss", lm_loss(head, hidden, labels).item())
