import numpy as np
import torch
import torch.nn as nn


class BLSTMEncoder(nn.Module):
    def __init__(self, config):
        super(BLSTMEncoder, self).__init__()
        self.word_emb_dim = config['word_emb_dim']
        self.enc_lstm_dim = config['enc_lstm_dim']
        self.pool_type = config['pool_type']
        self.enc_lstm = nn.LSTM(self.word_emb_dim, self.enc_lstm_dim, 1, bidirectional=True)

    def forward(self, sent_tuple):
        sent, sent_len = sent_tuple

        # Sort by length (keep idx)
        sent_len, idx_sort = np.sort(sent_len)[::-1], np.argsort(-sent_len)
        idx_unsort = np.argsort(idx_sort)

        idx_sort = torch.from_numpy(idx_sort)
        sent = sent.index_select(1, idx_sort)

        # Handling padding in Recurrent Networks
        sent_packed = nn.utils.rnn.pack_padded_sequence(sent, sent_len.copy())
        sent_output = self.enc_lstm(sent_packed)[0]
        sent_output = nn.utils.rnn.pad_packed_sequence(sent_output)[0]

        # Un-sort by length
        idx_unsort = torch.from_numpy(idx_unsort)
        sent_output = sent_output.index_select(1, idx_unsort)

        # Pooling
        if self.pool_type == "mean":
            sent_len = torch.FloatTensor(sent_len.copy()).unsqueeze(1)
            emb = torch.sum(sent_output, 0)
            emb = emb / sent_len.expand_as(emb)
        else:
            emb = torch.max(sent_output, 0)[0]
        return emb


def get_batch(batch, word_vec, word_emb_dim):
    lengths = np.array([len(x) for x in batch])
    embed = torch.zeros(int(np.max(lengths)), len(batch), word_emb_dim)
    for i in range(len(batch)):
        for j in range(len(batch[i])):
            embed[j, i, :] = word_vec[batch[i][j]]
    return embed, lengths


if __name__ == "__main__":
    torch.manual_seed(0)
    config_nli_model = {'word_emb_dim': 300, 'enc_lstm_dim': 64, 'pool_type': 'mean'}
    encoder = BLSTMEncoder(config_nli_model)
    sentences = [["<s>", "a", "dog", "runs", "</s>"],
                 ["<s>", "two", "men", "are", "playing", "chess", "outside", "</s>"],
                 ["<s>", "hello", "</s>"],
                 ["<s>", "the", "cat", "sat", "on", "a", "mat", "</s>"]]
    vocab = sorted({w for s in sentences for w in s})
    word_vec = {w: torch.randn(300) for w in vocab}

    with torch.no_grad():
        batch_emb = encoder(get_batch(sentences, word_vec, 300))
        single_emb = torch.cat([encoder(get_batch([s], word_vec, 300)) for s in sentences])
    print("per-sentence max |batched - single|:",
          [round(d, 4) for d in (batch_emb - single_emb).abs().max(dim=1).values.tolist()])
