import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn import CrossEntropyLoss


class MBartConfig:
    def __init__(self, vocab_size=60, d_model=32, decoder_attention_heads=4, decoder_layers=2, pad_token_id=1):
        self.vocab_size, self.d_model, self.decoder_attention_heads = vocab_size, d_model, decoder_attention_heads
        self.decoder_layers, self.pad_token_id = decoder_layers, pad_token_id


class MBartDecoder(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embed_tokens = nn.Embedding(config.vocab_size, config.d_model, padding_idx=config.pad_token_id)
        self.embed_positions = nn.Embedding(64, config.d_model)
        layer = nn.TransformerEncoderLayer(config.d_model, config.decoder_attention_heads, 64, dropout=0.0, batch_first=True, norm_first=True)
        self.layers = nn.TransformerEncoder(layer, config.decoder_layers, enable_nested_tensor=False)
        self.layer_norm = nn.LayerNorm(config.d_model)

    def forward(self, input_ids, attention_mask):
        seq_len = input_ids.shape[1]
        hidden = self.embed_tokens(input_ids) + self.embed_positions(torch.arange(seq_len))
        causal = torch.ones(seq_len, seq_len, dtype=torch.bool).triu(1)
        hidden = self.layers(hidden, mask=causal, src_key_padding_mask=attention_mask == 0)
        return self.layer_norm(hidden)


class MBartForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.decoder = MBartDecoder(config)
        self.lm_head = nn.Linear(config.d_model, config.vocab_size, bias=False)

    def forward(self, input_ids, attention_mask=None, labels=None):
        r"""
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
                Indices of input sequence tokens in the vocabulary.
            attention_mask (`torch.Tensor` of shape `(batch_size, sequence_length)`, *optional*):
                Mask to avoid performing attention on padding token indices.
            labels (`torch.LongTensor` of shape `(batch_size, sequence_length)`, *optional*):
                Labels for computing the language modeling loss. Indices should either be in `[0, ...,
                config.vocab_size]` or -100. Tokens with indices set to `-100` are ignored (masked).

        Returns:
            `(loss, logits)` with logits (`torch.FloatTensor` of shape `(batch_size, sequence_length, config.vocab_size)`).
        """
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        logits = self.lm_head(self.decoder(input_ids, attention_mask))
        loss = None
        if labels is not None:
            labels = labels.to(logits.device)
            loss_fct = CrossEntropyLoss()
            # shift so that tokens < n predict n
            shift_logits = logits[:, :-1, :].contiguous()
            shift_labels = labels[:, 1:].contiguous()
            loss = loss_fct(shift_logits.view(-1, self.config.vocab_size), shift_labels.view(-1))
        return loss, logits


def data_collator_for_causal_lm(examples, pad_token_id):
    """Pads the examples and copies input_ids into labels, with -100 on the padding (mlm=False)."""
    max_len = max(len(e) for e in examples)
    input_ids = torch.full((len(examples), max_len), pad_token_id)
    for i, e in enumerate(examples):
        input_ids[i, : len(e)] = torch.tensor(e)
    attention_mask = (input_ids != pad_token_id).long()
    labels = input_ids.masked_fill(attention_mask == 0, -100)
    return {"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels}


if __name__ == "__main__":
    torch.manual_seed(0)
    config = MBartConfig()
    model = MBartForCausalLM(config).eval()
    batch = data_collator_for_causal_lm([[0, 17, 23, 9, 41, 2], [0, 33, 8, 2]], config.pad_token_id)
    with torch.no_grad():
        loss, logits = model(**batch)
    labels = batch["labels"]
    terms = [
        -F.log_softmax(logits[b, t], dim=-1)[labels[b, t + 1]].item()
        for b in range(labels.shape[0]) for t in range(labels.shape[1] - 1) if labels[b, t + 1] != -100
    ]
    print("causal LM loss:", round(loss.item(), 4), "next-token loss:", round(sum(terms) / len(terms), 4))
    assert abs(loss.item() - sum(terms) / len(terms)) < 1e-5
    print("ok")
