import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyGPTLMHead(nn.Module):
    """Decoder-only language model with a tied LM head.

    Args:
        vocab_size (`int`): number of tokens in the vocabulary.
        n_embd (`int`): hidden size.
        n_positions (`int`): longest sequence the position table holds.
    """

    def __init__(self, vocab_size: int, n_embd: int, n_positions: int):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(n_positions, n_embd)
        self.block = nn.TransformerEncoderLayer(n_embd, nhead=2, dim_feedforward=2 * n_embd, batch_first=True)

    def forward(self, input_ids, lm_labels=None):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
                indices of input sequence tokens in the vocabulary.
            lm_labels (`torch.LongTensor` of shape `(batch_size, sequence_length)`, *optional*):
                labels for language modeling; usually `input_ids` itself, -1 marks ignored positions.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, sequence_length, vocab_size)` (the logits), or the
            scalar language-modeling loss when `lm_labels` is given.
        """
        seq_len = input_ids.size(1)
        positions = torch.arange(seq_len, device=input_ids.device)
        causal = nn.Transformer.generate_square_subsequent_mask(seq_len)
        hidden = self.block(self.wte(input_ids) + self.wpe(positions), src_mask=causal, is_causal=True)
        lm_logits = hidden @ self.wte.weight.t()
        if lm_labels is None:
            return lm_logits
        return language_modeling_loss(lm_logits, lm_labels)


def language_modeling_loss(lm_logits, lm_labels, ignore_index=-1):
    """
    Args:
        lm_logits (`torch.FloatTensor` of shape `(batch_size, sequence_length, vocab_size)`)
        lm_labels (`torch.LongTensor` of shape `(batch_size, sequence_length)`)

    Returns:
        `torch.FloatTensor`: mean negative log-likelihood over the non-ignored tokens.
    """
    log_probs = F.log_softmax(lm_logits, dim=-1)
    keep = lm_labels != ignore_index
    safe_labels = lm_labels.masked_fill(~keep, 0)
    token_logp = log_probs.gather(-1, safe_labels.unsqueeze(-1)).squeeze(-1)
    return -(token_logp * keep).sum() / keep.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyGPTLMHead(vocab_size=11, n_embd=16, n_positions=8).eval()
    input_ids = torch.randint(0, 11, (2, 6))
    with torch.no_grad():
        loss = model(input_ids, lm_labels=input_ids)
        logp = F.log_softmax(model(input_ids), dim=-1)
        ref = -torch.stack([logp[b, t, input_ids[b, t + 1]] for b in range(2) for t in range(5)]).mean()
    print("loss:", round(loss.item(), 4), "next-token NLL:", round(ref.item(), 4))
