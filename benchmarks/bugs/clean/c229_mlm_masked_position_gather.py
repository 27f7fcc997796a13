import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, CLS, SEP, MASK = 0, 1, 2, 3
NUM_SPECIAL = 4


class DataCollatorForMaskedLM:
    """BERT-style masking: 15% of the real tokens are selected; 80% of them become [MASK], 10% a random token.

    Args:
        vocab_size (`int`): size of the vocabulary, special tokens included.
        mlm_probability (`float`): fraction of the real tokens selected for prediction.
    """

    def __init__(self, vocab_size, mlm_probability=0.15, generator=None):
        self.vocab_size = vocab_size
        self.mlm_probability = mlm_probability
        self.generator = generator

    def __call__(self, input_ids):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`)

        Returns:
            `(inputs, labels)`, both `torch.LongTensor` of shape `(batch_size, seq_len)`; labels are -100 except at the
            selected positions.
        """
        labels = input_ids.clone()
        inputs = input_ids.clone()
        special = input_ids < NUM_SPECIAL
        probability = torch.full(labels.shape, self.mlm_probability).masked_fill(special, 0.0)
        selected = torch.bernoulli(probability, generator=self.generator).bool()
        labels[~selected] = -100

        replace = torch.bernoulli(torch.full(labels.shape, 0.8), generator=self.generator).bool() & selected
        inputs[replace] = MASK
        random_tok = torch.bernoulli(torch.full(labels.shape, 0.5), generator=self.generator).bool() & selected & ~replace
        random_ids = torch.randint(NUM_SPECIAL, self.vocab_size, labels.shape, generator=self.generator)
        inputs[random_tok] = random_ids[random_tok]
        return inputs, labels


class TinyBertForMaskedLM(nn.Module):
    def __init__(self, vocab_size, hidden_size=16, max_len=12):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden_size, padding_idx=PAD)
        self.position = nn.Embedding(max_len, hidden_size)
        layer = nn.TransformerEncoderLayer(hidden_size, 2, 2 * hidden_size, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
        self.cls = nn.Linear(hidden_size, vocab_size)

    def forward(self, input_ids, labels=None):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`)
            labels (`torch.LongTensor` of shape `(batch_size, seq_len)`, *optional*): -100 where not predicted.

        Returns:
            `(loss, prediction_scores)`: the mean MLM loss over the labelled positions and the scores of shape
            `(num_masked, vocab_size)` at those positions (row-major order).
        """
        pos = torch.arange(input_ids.size(1))
        hidden = self.encoder(self.embeddings(input_ids) + self.position(pos), src_key_padding_mask=input_ids == PAD)
        flat_hidden = hidden.reshape(-1, hidden.size(-1))
        masked_positions = (labels.reshape(-1) != -100).nonzero(as_tuple=True)[0]
        prediction_scores = self.cls(flat_hidden.index_select(0, masked_positions))
        target = labels.reshape(-1).index_select(0, masked_positions)
        log_probs = F.log_softmax(prediction_scores, dim=-1)
        loss = -log_probs.gather(1, target.unsqueeze(1)).squeeze(1).mean()
        return loss, prediction_scores


if __name__ == "__main__":
    import math

    torch.manual_seed(0)
    vocab_size = 30
    batch = torch.tensor([
        [CLS, 12, 7, 25, 9, 14, 6, SEP, PAD, PAD, PAD, PAD],
        [CLS, 5, 5, 18, 22, 11, 29, 8, 17, 10, 4, SEP],
    ])
    collator = DataCollatorForMaskedLM(vocab_size, mlm_probability=0.4, generator=torch.Generator().manual_seed(3))
    inputs, labels = collator(batch)
    model = TinyBertForMaskedLM(vocab_size).eval()
    with torch.no_grad():
        loss, scores = model(inputs, labels)
        pos = torch.arange(12)
        hidden = model.encoder(model.embeddings(inputs) + model.position(pos), src_key_padding_mask=inputs == PAD)

    positions = [(b, t) for b in range(2) for t in range(12) if labels[b, t].item() != -100]
    assert len(positions) > 0 and scores.shape == (len(positions), vocab_size)
    total = 0.0
    for row, (b, t) in enumerate(positions):
        assert batch[b, t].item() >= NUM_SPECIAL
        assert labels[b, t].item() == batch[b, t].item()
        logits = model.cls(hidden[b, t]).tolist()
        for v in range(vocab_size):
            assert abs(scores[row, v].item() - logits[v]) < 1e-5
        m = max(logits)
        lse = m + math.log(sum(math.exp(x - m) for x in logits))
        total += lse - logits[labels[b, t].item()]
    assert abs(loss.item() - total / len(positions)) < 1e-5
    print("ok")
