import torch
import torch.nn as nn


def for_causal_lm_loss(logits, labels, ignore_index=-100):
    """Next-token cross-entropy.

    Args:
        logits (`torch.FloatTensor` of shape `(batch_size, sequence_length, vocab_size)`):
            Prediction scores of the language modeling head.
        labels (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
            Labels aligned with the inputs; the shift is done here. Positions set to `-100` are ignored.

    Returns:
        `torch.FloatTensor` of shape `()`: mean negative log-likelihood over non-ignored tokens.
    """
    logits = logits[:, :-1, :].float()
    labels = labels[:, 1:]
    mask = labels != ignore_index
    log_probs = logits.log_softmax(dim=-1)
    token_logp = log_probs.gather(-1, labels.masked_fill(~mask, 0).unsqueeze(-1)).squeeze(-1)
    return -(token_logp * mask).sum() / mask.sum()


class TinyMoeForCausalLM(nn.Module):
    """Two-expert toy decoder with an LM head.

    Args:
        vocab_size (`int`): size of the vocabulary.
        hidden_size (`int`): dimension of the hidden states.
    """

    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.vocab_size = vocab_size
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.experts = nn.ModuleList([nn.Linear(hidden_size, hidden_size) for _ in range(2)])
        self.router = nn.Linear(hidden_size, 2)
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)

    def forward(self, input_ids, labels=None):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
                Indices of input sequence tokens.
            labels (`torch.LongTensor` of shape `(batch_size, sequence_length)`, *optional*):
                Labels for language modeling, usually `input_ids`.

        Returns:
            `tuple(torch.FloatTensor)`: `(loss, logits)` with logits of shape `(batch_size, sequence_length, vocab_size)`.
        """
        h = self.embed_tokens(input_ids)
        gate = self.router(h).softmax(-1)
        h = h + sum(gate[..., i : i + 1] * torch.tanh(e(h)) for i, e in enumerate(self.experts))
        logits = self.lm_head(h)
        loss = None
        if labels is not None:
            loss = for_causal_lm_loss(logits, labels)
        return loss, logits


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyMoeForCausalLM(vocab_size=50, hidden_size=16)
    input_ids = torch.randint(0, 50, (2, 12))
    labels = input_ids.clone()
    labels[0, :3] = -100
    loss, logits = model(input_ids, labels=labels)
    lp = logits.log_softmax(-1)
    terms = [-lp[b, t, labels[b, t + 1]] for b in range(2) for t in range(11) if labels[b, t + 1] != -100]
    ref = torch.stack(terms).mean()
    assert torch.allclose(loss, ref, atol=1e-6)
    print("ok")
