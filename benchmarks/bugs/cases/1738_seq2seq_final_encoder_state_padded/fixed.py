import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class SimpleSeq2SeqEncoder(nn.Module):
    def __init__(self, vocab_size: int, embedding_dim: int, hidden_dim: int, pad_index: int = 0):
        super().__init__()
        self.pad_index = pad_index
        self.source_embedder = nn.Embedding(vocab_size, embedding_dim, padding_idx=pad_index)
        self.encoder = nn.LSTM(embedding_dim, hidden_dim, batch_first=True)

    def _encode(self, source_tokens):
        # shape: (batch_size, max_input_sequence_length)
        source_mask = source_tokens != self.pad_index
        # shape: (batch_size, max_input_sequence_length, embedding_dim)
        embedded_input = self.source_embedder(source_tokens)
        lengths = source_mask.sum(dim=1)
        packed = pack_padded_sequence(embedded_input, lengths, batch_first=True, enforce_sorted=False)
        packed_out, _ = self.encoder(packed)
        # shape: (batch_size, max_input_sequence_length, encoder_output_dim); padded steps are zeros
        encoder_outputs, _ = pad_packed_sequence(packed_out, batch_first=True,
                                                 total_length=source_tokens.size(1))
        return {"source_mask": source_mask, "encoder_outputs": encoder_outputs}

    def _init_decoder_state(self, state):
        encoder_outputs = state["encoder_outputs"]
        # shape: (batch_size,)
        last_word_indices = state["source_mask"].sum(dim=1) - 1
        batch_size, _, encoder_output_dim = encoder_outputs.size()
        # shape: (batch_size, 1, encoder_output_dim)
        expanded_indices = last_word_indices.view(-1, 1, 1).expand(batch_size, 1, encoder_output_dim)
        # shape: (batch_size, encoder_output_dim)
        final_encoder_output = encoder_outputs.gather(1, expanded_indices).squeeze(1)
        state["decoder_hidden"] = final_encoder_output
        state["decoder_context"] = encoder_outputs.new_zeros(final_encoder_output.shape)
        return state

    def forward(self, source_tokens):
        return self._init_decoder_state(self._encode(source_tokens))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SimpleSeq2SeqEncoder(vocab_size=30, embedding_dim=8, hidden_dim=12)
    lengths = [7, 4, 2, 5]
    source = torch.zeros(len(lengths), max(lengths), dtype=torch.long)
    for i, n in enumerate(lengths):
        source[i, :n] = torch.randint(1, 30, (n,))
    with torch.no_grad():
        state = model(source)
        ref = torch.stack([
            model.encoder(model.source_embedder(source[i:i + 1, :n]))[0][0, -1]
            for i, n in enumerate(lengths)
        ])
    assert torch.allclose(state["decoder_hidden"], ref, atol=1e-6)
    print("ok")
