import torch
import torch.nn as nn


def shift_tokens_right(input_ids, pad_token_id, decoder_start_token_id):
    """Shift input ids one token to the right, prepending the decoder start token."""
    shifted_input_ids = input_ids.new_zeros(input_ids.shape)
    shifted_input_ids[:, 1:] = input_ids[:, :-1].clone()
    shifted_input_ids[:, 0] = decoder_start_token_id
    shifted_input_ids.masked_fill_(shifted_input_ids == -100, pad_token_id)
    return shifted_input_ids


def for_causal_lm_loss(logits, labels, ignore_index=-100):
    """
    Args:
        logits (`torch.FloatTensor` of shape `(batch_size, sequence_length, vocab_size)`):
            Prediction scores of the language modeling head.
        labels (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
            Token ids aligned with the inputs; position `i` of `logits` is scored against token `i + 1`.

    Returns:
        `torch.FloatTensor` of shape `()`: the mean negative log-likelihood over the non-ignored tokens.
    """
    shift_logits = logits[:, :-1, :].float()
    shift_labels = labels[:, 1:]
    mask = shift_labels != ignore_index
    log_probs = shift_logits.log_softmax(dim=-1)
    token_logps = log_probs.gather(-1, shift_labels.masked_fill(~mask, 0).unsqueeze(-1)).squeeze(-1)
    return -(token_logps * mask).sum() / mask.sum()


def seq2seq_lm_loss(logits, labels, ignore_index=-100):
    """
    Args:
        logits (`torch.FloatTensor` of shape `(batch_size, sequence_length, vocab_size)`):
            Decoder prediction scores; the decoder inputs are the labels shifted right, so position `i`
            already predicts `labels[:, i]`.
        labels (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
            Target token ids; `-100` marks padding.

    Returns:
        `torch.FloatTensor` of shape `()`: the mean negative log-likelihood over the non-ignored tokens.
    """
    mask = labels != ignore_index
    log_probs = logits.float().log_softmax(dim=-1)
    token_logps = log_probs.gather(-1, labels.masked_fill(~mask, 0).unsqueeze(-1)).squeeze(-1)
    return -(token_logps * mask).sum() / mask.sum()


class Florence2ForConditionalGeneration(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.shared = nn.Embedding(config["vocab_size"], config["d_model"])
        self.image_proj = nn.Linear(config["vision_dim"], config["d_model"])
        self.decoder = nn.GRU(config["d_model"], config["d_model"], batch_first=True)
        self.lm_head = nn.Linear(config["d_model"], config["vocab_size"], bias=False)
        self.loss_function = seq2seq_lm_loss

    def forward(self, pixel_features, labels=None, decoder_input_ids=None):
        """
        Args:
            pixel_features (`torch.FloatTensor` of shape `(batch_size, num_patches, vision_dim)`):
                Image patch features from the vision tower.
            labels (`torch.LongTensor` of shape `(batch_size, target_sequence_length)`):
                Target token ids; `-100` marks padding.

        Returns:
            `tuple(torch.FloatTensor)`: the loss (when `labels` is given) and the logits of shape
            `(batch_size, target_sequence_length, vocab_size)`.
        """
        if labels is not None and decoder_input_ids is None:
            decoder_input_ids = shift_tokens_right(
                labels, self.config["pad_token_id"], self.config["decoder_start_token_id"]
            )
        image_state = self.image_proj(pixel_features).mean(dim=1).unsqueeze(0)
        hidden, _ = self.decoder(self.shared(decoder_input_ids), image_state)
        logits = self.lm_head(hidden)
        loss = None
        if labels is not None:
            loss = self.loss_function(logits, labels)
        return loss, logits


if __name__ == "__main__":
    torch.manual_seed(0)
    config = {"vocab_size": 17, "d_model": 12, "vision_dim": 10, "pad_token_id": 1, "decoder_start_token_id": 2}
    model = Florence2ForConditionalGeneration(config)
    pixel_features = torch.randn(2, 4, 10)
    labels = torch.tensor([[5, 9, 4, 11, 3], [7, 6, 3, -100, -100]])
    with torch.no_grad():
        loss, logits = model(pixel_features, labels=labels)
    logp = logits.log_softmax(-1)
    terms = [-logp[b, t, labels[b, t]].item() for b in range(2) for t in range(5) if labels[b, t] != -100]
    print("training loss:", round(loss.item(), 4))
    print("NLL of each target given the tokens before it:", round(sum(terms) / len(terms), 4))
    assert abs(loss.item() - sum(terms) / len(terms)) < 1e-5
    print("ok")
