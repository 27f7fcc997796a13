import torch
import torch.nn as nn
import torch.nn.functional as F


def shift_tokens_right(input_ids, pad_token_id, decoder_start_token_id):
    """Shift target ids one position to the right to build the decoder inputs.

    Args:
        input_ids (`torch.LongTensor` of shape `(batch_size, target_length)`):
            Target token ids, `-100` on positions that do not count in the loss.
        pad_token_id (`int`): id written where the target had `-100`.
        decoder_start_token_id (`int`): id placed at the first decoder position.

    Returns:
        `torch.LongTensor` of shape `(batch_size, target_length)`.
    """
    shifted = input_ids.new_zeros(input_ids.shape)
    shifted[:, 1:] = input_ids[:, :-1].clone()
    shifted[:, 0] = decoder_start_token_id
    shifted.masked_fill_(shifted == -100, pad_token_id)
    return shifted


def causal_lm_loss(logits, labels, vocab_size, ignore_index=-100, shift_labels=None):
    """Token-level cross entropy of a language-model head.

    Args:
        logits (`torch.FloatTensor` of shape `(batch_size, sequence_length, vocab_size)`):
            Prediction scores of the head.
        labels (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
            Ids aligned with the *inputs* of the decoder; they are shifted left here so that
            position `t` is scored against token `t + 1`.
        shift_labels (`torch.LongTensor` of shape `(batch_size, sequence_length)`, *optional*):
            Targets already aligned with `logits`. When given, no shift is applied.

    Returns:
        `torch.FloatTensor`: scalar mean loss over the non-ignored positions.
    """
    logits = logits.float()
    if shift_labels is None:
        labels = F.pad(labels, (0, 1), value=ignore_index)
        shift_labels = labels[..., 1:]
    return F.cross_entropy(logits.reshape(-1, vocab_size), shift_labels.reshape(-1), ignore_index=ignore_index)


class PatchEncoder(nn.Module):
    def __init__(self, patch_dim, hidden_size):
        super().__init__()
        self.proj = nn.Linear(patch_dim, hidden_size)

    def forward(self, pixel_values):
        """
        Args:
            pixel_values (`torch.FloatTensor` of shape `(batch_size, num_patches, patch_dim)`).

        Returns:
            `torch.FloatTensor` of shape `(batch_size, hidden_size)`: pooled image state.
        """
        return torch.tanh(self.proj(pixel_values)).mean(dim=1)


class TextDecoder(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.rnn = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.lm_head = nn.Linear(hidden_size, vocab_size)

    def forward(self, decoder_input_ids, encoder_state):
        hidden, _ = self.rnn(self.embed_tokens(decoder_input_ids), encoder_state.unsqueeze(0))
        return self.lm_head(hidden)


class ImageToTextModel(nn.Module):
    """Vision encoder + text decoder; `labels` are the caption ids, the decoder inputs are
    built by shifting them right (teacher forcing)."""

    def __init__(self, config):
        super().__init__()
        self.config = config
        self.encoder = PatchEncoder(config["patch_dim"], config["hidden_size"])
        self.decoder = TextDecoder(config["vocab_size"], config["hidden_size"])

    def forward(self, pixel_values, labels):
        decoder_input_ids = shift_tokens_right(
            labels, self.config["pad_token_id"], self.config["decoder_start_token_id"]
        )
        logits = self.decoder(decoder_input_ids, self.encoder(pixel_values))
        loss = causal_lm_loss(logits, labels, self.config["vocab_size"], shift_labels=labels)
        return loss, logits


if __name__ == "__main__":
    torch.manual_seed(0)
    config = dict(patch_dim=12, hidden_size=16, vocab_size=40, pad_token_id=0, decoder_start_token_id=1)
    model = ImageToTextModel(config)
    pixel_values = torch.randn(3, 5, 12)
    labels = torch.randint(2, 40, (3, 7))
    labels[1, 5:] = -100
    labels[2, 4:] = -100
    loss, logits = model(pixel_values, labels)

    logp = logits.log_softmax(-1)
    terms = []
    for b in range(labels.size(0)):
        for t in range(labels.size(1)):
            if labels[b, t] != -100:
                terms.append(-logp[b, t, labels[b, t]])
    reference = torch.stack(terms).mean()
    assert torch.allclose(loss, reference, atol=1e-5)
    print("ok")
