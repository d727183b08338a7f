// Command evalshot draws what a program shows on a terminal as an SVG
// picture: it runs the program in a pseudo-terminal whose output feeds a
// terminal emulator (charmbracelet/x/vt, as cmd/evalbench measures what a
// user sees), types the keys it is given, waits until the screen settles,
// and writes the emulator's cells, with their colours and weights, as
// SVG text. scripts/screenshot uses it for the README's picture, so that
// the picture is always the real binary's screen.
//
//	evalshot -o docs/images/evalview.svg -w 120 -h 34 -keys 'T' -- ./evalview --demo
//
// Keys are separated by spaces and sent one at a time, the screen let
// settle after each: a single character, or a name (enter, esc, tab,
// up, down, left, right, space).
package main

import (
	"errors"
	"flag"
	"fmt"
	"html"
	"image/color"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

func main() {
	out := flag.String("o", "", "the SVG file to write (standard output when empty)")
	w := flag.Int("w", 120, "terminal columns")
	h := flag.Int("h", 34, "terminal rows")
	keys := flag.String("keys", "", "keys to type, separated by spaces (enter, esc, tab, up, down, left, right, space, or one character)")
	settle := flag.Duration("settle", 400*time.Millisecond, "how long the screen must stay unchanged to count as drawn")
	title := flag.String("title", "", "the picture's title (its accessible name)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: evalshot [-o FILE] [-w COLS] [-h ROWS] [-keys KEYS] -- PROGRAM [ARGS...]")
		os.Exit(2)
	}
	svg, err := shoot(flag.Args(), *w, *h, strings.Fields(*keys), *settle, *title)
	if err != nil {
		fmt.Fprintln(os.Stderr, "evalshot:", err)
		os.Exit(1)
	}
	if *out == "" {
		_, _ = os.Stdout.WriteString(svg)
		return
	}
	if err := os.WriteFile(*out, []byte(svg), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "evalshot:", err)
		os.Exit(1)
	}
}

// keyBytes are what a terminal sends for the named keys.
var keyBytes = map[string]string{
	"enter": "\r", "esc": "\x1b", "tab": "\t", "space": " ",
	"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
}

// shoot runs argv on a w x h terminal, types keys and returns the
// settled screen as SVG.
func shoot(argv []string, w, h int, keys []string, settle time.Duration, title string) (string, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "COLORTERM=truecolor")
	em := vt.NewEmulator(w, h)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: uint16(h), Cols: uint16(w)})
	if err != nil {
		return "", err
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = f.Close()
	}()
	var mu sync.Mutex
	changed := time.Now()
	// The emulator's answers to queries go back to the program, as a
	// terminal's do.
	go func() { _, _ = io.Copy(f, em) }()
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				mu.Lock()
				_, _ = em.Write(buf[:n])
				changed = time.Now()
				mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	wait := func() error {
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			mu.Lock()
			quiet := time.Since(changed)
			mu.Unlock()
			if quiet >= settle {
				return nil
			}
		}
		return errors.New("the screen did not settle within 20 s")
	}
	if err := wait(); err != nil {
		return "", err
	}
	for _, k := range keys {
		b, ok := keyBytes[k]
		if !ok {
			b = k
		}
		if _, err := f.Write([]byte(b)); err != nil {
			return "", err
		}
		if err := wait(); err != nil {
			return "", err
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return render(em, w, h, title), nil
}

// The picture's metrics: a cell is cellW x cellH pixels, text sits on
// a baseline at base within its cell.
const (
	cellW    = 8.4
	cellH    = 18.0
	base     = 13.5
	fontSize = 14
	pad      = 12.0
)

// The colours of a dark terminal, for cells that name none.
var (
	defaultFg = color.RGBA{0xd0, 0xd0, 0xd0, 0xff}
	defaultBg = color.RGBA{0x1c, 0x1c, 0x1c, 0xff}
)

// render writes the emulator's screen as SVG: one rectangle per run of
// cells with the same background, one text span per run with the same
// style, placed cell by cell so that wide characters keep their columns.
func render(em *vt.Emulator, w, h int, title string) string {
	var b strings.Builder
	width := float64(w)*cellW + 2*pad
	height := float64(h)*cellH + 2*pad
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img">`+"\n", width, height, width, height)
	if title != "" {
		fmt.Fprintf(&b, "<title>%s</title>\n", html.EscapeString(title))
	}
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" rx="8" fill="%s"/>`+"\n", hex(defaultBg))
	fmt.Fprintf(&b, `<g font-family="ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace" font-size="%d" xml:space="preserve">`+"\n", fontSize)
	for y := 0; y < h; y++ {
		ty := pad + float64(y)*cellH
		// Backgrounds.
		for x := 0; x < w; {
			c := em.CellAt(x, y)
			_, bg := colors(c)
			if bg == hex(defaultBg) {
				x++
				continue
			}
			start := x
			for x < w {
				_, b2 := colors(em.CellAt(x, y))
				if b2 != bg {
					break
				}
				x++
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`+"\n", pad+float64(start)*cellW, ty, float64(x-start)*cellW, cellH, bg)
		}
		// Text, one element per cell that shows something: browsers
		// and viewers lay a run of text out by their font's advance,
		// which is not the terminal's column for every character.
		for x := 0; x < w; x++ {
			c := em.CellAt(x, y)
			if c == nil || c.Content == "" || c.Content == " " {
				continue
			}
			fg, _ := colors(c)
			attrs := ""
			if c.Style.Attrs&uv.AttrBold != 0 {
				attrs += ` font-weight="bold"`
			}
			if c.Style.Attrs&uv.AttrItalic != 0 {
				attrs += ` font-style="italic"`
			}
			if c.Style.Attrs&uv.AttrFaint != 0 {
				attrs += ` opacity="0.6"`
			}
			if c.Style.Underline != uv.UnderlineNone {
				attrs += ` text-decoration="underline"`
			}
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="%s"%s>%s</text>`+"\n", pad+float64(x)*cellW, ty+base, fg, attrs, html.EscapeString(c.Content))
		}
	}
	b.WriteString("</g>\n</svg>\n")
	return b.String()
}

// colors are a cell's foreground and background as SVG colours, reverse
// video applied.
func colors(c *uv.Cell) (fg, bg string) {
	var f, g color.Color = defaultFg, defaultBg
	if c != nil {
		if c.Style.Fg != nil {
			f = c.Style.Fg
		}
		if c.Style.Bg != nil {
			g = c.Style.Bg
		}
		if c.Style.Attrs&uv.AttrReverse != 0 {
			f, g = g, f
		}
	}
	return hex(f), hex(g)
}

// hex is a colour as #rrggbb; the 16 and 256 ANSI colours resolve
// through the emulator's palette (color.Color's RGBA).
func hex(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}
