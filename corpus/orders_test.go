package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// orderPage is a page of two columns on one line and the layout order that
// reads one column, then the other.
const orderPage = "left one right one\nleft two right two"

func orderOf(name string, pieces ...any) Order {
	o := Order{Name: name}
	page := []rune(orderPage)
	for _, p := range pieces {
		switch p := p.(type) {
		case string: // an inserted separator
			for _, r := range p {
				o.Text += string(r)
				o.Map = append(o.Map, -1)
			}
		case [2]int: // page text [from, to)
			for k := p[0]; k < p[1]; k++ {
				o.Text += string(page[k])
				o.Map = append(o.Map, int32(k))
			}
		}
	}
	return o
}

func layoutOrder() Order {
	return orderOf("layout", [2]int{0, 8}, "\n", [2]int{19, 27}, "\n\n", [2]int{9, 18}, "\n", [2]int{28, 37})
}

func TestValidateOrders(t *testing.T) {
	good := layoutOrder()
	bad := func(f func(o *Order)) []Order {
		o := layoutOrder()
		o.Map = append([]int32(nil), o.Map...)
		f(&o)
		return []Order{o}
	}
	tests := []struct {
		orders []Order
		ok     bool
		why    string
	}{
		{nil, true, "most stores: no orders"},
		{[]Order{good}, true, "a layout order"},
		{[]Order{good, orderOf("boxes", [2]int{0, 37})}, false, "names sorted"},
		{[]Order{orderOf("boxes", [2]int{0, 37}), good}, true, "two orders, sorted by name"},
		{[]Order{good, good}, false, "a name twice"},
		{bad(func(o *Order) { o.Name = "Layout" }), false, "names are lower case"},
		{bad(func(o *Order) { o.Map[0] = 1 }), false, "a mapped code point must be the page text's"},
		{bad(func(o *Order) { o.Map[8] = 17 }), false, "a separator must map to -1 (or to a space of the page)"},
		{bad(func(o *Order) { o.Map = o.Map[1:] }), false, "one map entry per code point"},
		{[]Order{orderOf("layout", [2]int{0, 8}, "\n", [2]int{0, 8})}, false, "a page offset taken twice"},
		{[]Order{orderOf("layout", [2]int{0, 8}, "\t", [2]int{9, 18})}, false, "only spaces and line feeds are inserted"},
		{[]Order{orderOf("a"), orderOf("b"), orderOf("c"), orderOf("d"), orderOf("e")}, false, "more than MaxOrders"},
	}
	for _, tc := range tests {
		err := ValidateOrders(tc.orders, orderPage)
		assert.Equal(t, tc.ok, err == nil, "%s: %v", tc.why, err)
	}
}

func TestOrdersRoundTrip(t *testing.T) {
	orders := []Order{orderOf("boxes", [2]int{0, 37}), layoutOrder()}
	data := EncodeOrders(orders)
	assert.Equal(t, "citecheck-orders/1\nboxes 37 1\n0 37\nleft one right one\nleft two right two\n"+
		"layout 38 7\n0 8\n- 1\n19 8\n- 2\n9 9\n- 1\n28 9\nleft one\nleft two\n\nright one\nright two\n", string(data))
	got, err := DecodeOrders(data, orderPage)
	require.NoError(t, err)
	assert.Equal(t, orders, got)
	for _, c := range []struct{ data, why string }{
		{"citecheck-orders/2\n", "another format"},
		{"citecheck-orders/1\nlayout 3 1\n0 3\nlef", "no line feed after the text"},
		{"citecheck-orders/1\nlayout 3 1\n0 3\nleftx\n", "a text longer than its code points"},
		{"citecheck-orders/1\nlayout 3 1\n0 4\nlef\n", "a run past the order"},
		{"citecheck-orders/1\nlayout 3 1\n36 3\nlef\n", "a run past the page text"},
		{"citecheck-orders/1\nlayout 3 1\n1 3\nlef\n", "a run that is not the page text"},
		{"citecheck-orders/1\nlayout  3 1\n0 3\nlef\n", "two spaces"},
		{"citecheck-orders/1\nlayout 3 1\n00 3\nlef\n", "a number with a leading zero"},
		{"citecheck-orders/1\nlayout 999999 1\n0 3\nlef\n", "more code points than a page can make"},
	} {
		_, err := DecodeOrders([]byte(c.data), orderPage)
		var oe *OrdersError
		assert.True(t, errors.As(err, &oe), "%s: %v", c.why, err)
	}
}

// TestStoreOrders: Build stores a page's orders in one file beside its
// text, the manifest records its hash, and Store.Orders gives them back
// checked; an edited file is an integrity failure.
func TestStoreOrders(t *testing.T) {
	pages := []PageText{{Text: orderPage, Orders: []Order{layoutOrder()}}, {Text: "no orders"}}
	dir := storeOf(t, MemoryDocument{Name: "a.pdf", Pages: pages})
	st, err := Open(dir)
	require.NoError(t, err)
	doc, _ := st.Manifest().Document("a.pdf")
	assert.Equal(t, Hash(EncodeOrders(pages[0].Orders)), doc.Pages[0].Orders)
	got, err := st.Orders(doc, 1)
	require.NoError(t, err)
	assert.Equal(t, pages[0].Orders, got)
	got, err = st.Orders(doc, 2)
	assert.NoError(t, err)
	assert.Nil(t, got, "a page without orders")
	rel, _ := ordersFile(doc.BLAKE3, 1)
	path := filepath.Join(dir, filepath.FromSlash(rel))
	require.NoError(t, os.WriteFile(path, []byte("citecheck-orders/1\n"), 0o644))
	_, err = st.Orders(doc, 1)
	assert.ErrorIs(t, err, ErrIntegrity, "an edited file")
	require.NoError(t, os.Remove(path))
	_, err = st.Orders(doc, 1)
	assert.ErrorIs(t, err, ErrIntegrity, "a missing file")
}

// FuzzDecodeOrders: any bytes decode to valid orders or to an
// *OrdersError, never a panic; what decodes encodes back to the same bytes.
func FuzzDecodeOrders(f *testing.F) {
	f.Add(EncodeOrders([]Order{layoutOrder()}), orderPage)
	f.Add([]byte("citecheck-orders/1\nx 1 1\n- 1\n \n"), "a")
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		orders, err := DecodeOrders(data, text)
		if err != nil {
			var oe *OrdersError
			if !errors.As(err, &oe) {
				t.Fatalf("error %v is no *OrdersError", err)
			}
			return
		}
		if err := ValidateOrders(orders, text); err != nil {
			t.Fatalf("decoded orders do not validate: %v", err)
		}
		if got := EncodeOrders(orders); string(got) != string(data) {
			t.Fatalf("re-encoded %q, read %q", got, data)
		}
	})
}
