import torch
import torch.nn as nn


class RobertaLikeEmbeddings(nn.Module):
    """Word + learned absolute position embeddings.

    Args:
        vocab_size (`int`): size of the token vocabulary.
        hidden_size (`int`): embedding width.
        max_position_embeddings (`int`): number of rows of the position table.
        pad_token_id (`int`): id of the padding token in the vocabulary.
    """

    def __init__(self, vocab_size, hidden_size, max_position_embeddings, pad_token_id):
        super().__init__()
        self.padding_idx = pad_token_id
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size, padding_idx=pad_token_id)
        self.position_embeddings = nn.Embedding(max_position_embeddings, hidden_size)

    def create_position_ids_from_inputs_embeds(self, inputs_embeds):
        """
        Sequential position ids for embeddings passed in directly (padding cannot be inferred).

        Args:
            inputs_embeds (`torch.FloatTensor` of shape `(batch_size, sequence_length, hidden_size)`)

        Returns:
            `torch.LongTensor` of shape `(batch_size, sequence_length)`
        """
        batch_size, seq_len = inputs_embeds.shape[:2]
        position_ids = torch.arange(self.padding_idx + 1, seq_len + self.padding_idx + 1, dtype=torch.long)
        return position_ids.unsqueeze(0).expand(batch_size, seq_len)

    def forward(self, input_ids=None, inputs_embeds=None):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`, *optional*)
            inputs_embeds (`torch.FloatTensor` of shape `(batch_size, sequence_length, hidden_size)`, *optional*)
        """
        if inputs_embeds is None:
            inputs_embeds = self.word_embeddings(input_ids)
        position_ids = self.create_position_ids_from_inputs_embeds(inputs_embeds)
        return inputs_embeds + self.position_embeddings(position_ids)


if __name__ == "__main__":
    torch.manual_seed(0)
    # tokenizer trained from scratch: specials appended after the 250 regular pieces
    emb = RobertaLikeEmbeddings(vocab_size=256, hidden_size=16, max_position_embeddings=130, pad_token_id=251)
    inputs_embeds = torch.randn(2, 128, 16)
    with torch.no_grad():
        out = emb(inputs_embeds=inputs_embeds)
        ref = torch.stack([torch.stack([inputs_embeds[b, t] + emb.position_embeddings.weight[t]
                                        for t in range(128)]) for b in range(2)])
    print("max |diff| vs reference:", (out - ref).abs().max().item())
