from typing import Any, Dict

import torch
import torch.nn.functional as F


class LossPerpVLen:
    """Loss and perplexity as a function of the token position inside each packed sequence."""

    def __init__(self, ignore_index: int = -100):
        self.ignore_index = ignore_index
        self.sum_loss_seq_id = torch.zeros(0)
        self.sum_length_seq_id = torch.zeros(0, dtype=torch.long)

    def update(self, labels: torch.Tensor, logits: torch.Tensor, sequence_id: torch.Tensor, loss_fn: Any) -> None:
        """Updates the internal state with results from a new batch.

        Args:
            labels (torch.Tensor): Next-token targets, ignore_index on padding. Shape (batch_size, seq_len).
            logits (torch.Tensor): Model outputs. Shape (batch_size, seq_len, vocab_size).
            sequence_id (torch.Tensor): Index of the packed sequence each token belongs to, -1 for
                padding tokens. Shape (batch_size, seq_len).
            loss_fn (Any): The cross entropy loss to use (reduction='none').
        """
        valid_labels_mask = (labels != self.ignore_index).long()
        bsz, seq_len = labels.shape
        loss = loss_fn(logits.view(bsz * seq_len, -1), labels.view(-1)).view(bsz, seq_len)
        if self.sum_loss_seq_id.numel() == 0:
            self.sum_loss_seq_id = torch.zeros(seq_len, dtype=loss.dtype)
            self.sum_length_seq_id = torch.zeros(seq_len, dtype=torch.long)

        seq_id_expanded = F.one_hot(sequence_id).transpose(-1, -2)
        seq_lens = seq_id_expanded.sum(dim=-1)
        max_num_seq = seq_lens.shape[1]
        seq_tok_ids = torch.arange(seq_len)[None, None, :].expand(bsz, max_num_seq, -1)
        mask = seq_tok_ids < seq_lens[:, :, None]
        seq_len_offsets = F.pad(seq_lens.cumsum(dim=1)[:, :-1], (1, 0), value=0)
        seq_tok_ids = torch.where(mask, seq_tok_ids + seq_len_offsets[:, :, None], torch.zeros_like(seq_tok_ids))

        loss = loss[:, None, :].expand(-1, max_num_seq, -1)
        valid_labels_mask = valid_labels_mask[:, None, :].expand(-1, max_num_seq, -1)
        loss = torch.where(mask, torch.gather(input=loss, dim=2, index=seq_tok_ids), torch.zeros_like(loss))
        mask = torch.where(
            mask, torch.gather(input=valid_labels_mask, dim=2, index=seq_tok_ids), torch.zeros_like(valid_labels_mask)
        )
        self.sum_loss_seq_id += torch.sum(loss, dim=(0, 1))
        self.sum_length_seq_id += torch.sum(mask, dim=(0, 1))

    def compute(self) -> Dict[str, torch.Tensor]:
        """Average loss at each position, counted from the start of every packed sequence."""
        return {'mean_loss_seq_id': self.sum_loss_seq_id / self.sum_length_seq_id.clamp(min=1)}


if __name__ == '__main__':
    torch.manual_seed(0)
    sequence_id = torch.tensor([[0, 0, 0, 1, 1, 1, 1, 2, 2, -1], [0, 0, 0, 0, 0, 1, 1, -1, -1, -1]])
    labels = torch.randint(0, 11, sequence_id.shape).masked_fill(sequence_id == -1, -100)
    logits = torch.randn(2, 10, 11)
    loss_fn = torch.nn.CrossEntropyLoss(ignore_index=-100, reduction='none')
    metric = LossPerpVLen()
    metric.update(labels, logits, sequence_id, loss_fn)
    result = metric.compute()['mean_loss_seq_id']

    token_loss = loss_fn(logits.view(20, 11), labels.view(-1)).view(2, 10)
    ref_sum, ref_cnt = torch.zeros(10), torch.zeros(10)
    for b in range(2):
        for t in range(10):
            if labels[b, t] == -100:
                continue
            pos = int((sequence_id[b, :t] == sequence_id[b, t]).sum())
            ref_sum[pos] += token_loss[b, t]
            ref_cnt[pos] += 1
    print('tokens per position:', metric.sum_length_seq_id.tolist())
    assert torch.allclose(result, ref_sum / ref_cnt.clamp(min=1))
    print('ok')
