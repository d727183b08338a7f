package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// s3Store is an S3 bucket, or one of an S3-compatible store (MinIO, R2:
// AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL), through the AWS SDK, which
// finds credentials as the AWS tools do (the environment, AWS_PROFILE and
// ~/.aws, SSO, the instance's role). Without any, requests go unsigned,
// as for a public bucket.
type s3Store struct {
	c      *s3.Client
	bucket string
	cred   string // where the credentials came from, for messages
}

func newS3(ctx context.Context, bucket string) (store, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	cfg, err := config.LoadDefaultConfig(ctx,
		// The SDK logs nothing: a line on stderr would tear the browser's screen.
		config.WithLogger(logging.Nop{}),
		config.WithClientLogMode(0),
		// A buildable client, so that AWS_CA_BUNDLE still applies.
		config.WithHTTPClient(awshttp.NewBuildableClient().
			WithDialerOptions(func(d *net.Dialer) { d.Timeout = min(Timeout, 10*time.Second) }).
			WithTransportOptions(func(tr *http.Transport) {
				tr.TLSHandshakeTimeout = min(Timeout, 10*time.Second)
				tr.ResponseHeaderTimeout = Timeout
				tr.MaxIdleConnsPerHost = 2 * inFlight
			})),
		config.WithRetryer(func() aws.Retryer {
			return retry.AddWithMaxBackoffDelay(retry.NewStandard(func(o *retry.StandardOptions) {
				o.MaxAttempts = Attempts
			}), 8*Backoff)
		}))
	if err != nil {
		return nil, fmt.Errorf("AWS configuration: %w", err)
	}
	// The SDK's client follows a 307 or 308 to any host with the request's
	// headers, and Go's keeps Authorization for another port of the same
	// host: a SigV4 signature and a session token would reach an endpoint
	// they were not made for. The same transport (timeouts, AWS_CA_BUNDLE)
	// under a client that follows a redirect within the endpoint only.
	if bc, ok := cfg.HTTPClient.(*awshttp.BuildableClient); ok {
		cfg.HTTPClient = &http.Client{Transport: bc.GetTransport(), CheckRedirect: s3Redirect}
	}
	regionSet := cfg.Region != ""
	if !regionSet {
		cfg.Region = "us-east-1"
	}
	s := &s3Store{bucket: bucket}
	if cfg.Credentials == nil {
		cfg.Credentials = aws.AnonymousCredentials{}
		s.cred = "no credentials (anonymous)"
	} else if c, err := cfg.Credentials.Retrieve(ctx); err != nil || !c.HasKeys() {
		cfg.Credentials = aws.AnonymousCredentials{}
		s.cred = "no credentials (anonymous: none in the environment, AWS_PROFILE or ~/.aws)"
	} else {
		s.cred = "credentials from " + c.Source
	}
	opt := func(o *s3.Options) {
		if o.BaseEndpoint != nil {
			o.UsePathStyle = true // MinIO and most S3-compatible stores
		}
	}
	s.c = s3.NewFromConfig(cfg, opt)
	if !regionSet {
		// No region named: ask the bucket's, as the AWS CLI's redirects
		// do, so that a public bucket outside us-east-1 opens as given.
		if r := s.bucketRegion(ctx); r != "" && r != cfg.Region {
			cfg.Region = r
			s.c = s3.NewFromConfig(cfg, opt)
		}
	}
	return s, nil
}

// s3Redirect follows what the SDK's own client follows (307 and 308,
// which keep the method), within the endpoint the request was signed for;
// a redirect to another endpoint (scheme, host or port) is refused with
// an error that says where to: the request is not re-signed for it, and
// nothing signed goes there.
func s3Redirect(req *http.Request, via []*http.Request) error {
	if req.Response == nil || req.Response.StatusCode != http.StatusTemporaryRedirect && req.Response.StatusCode != http.StatusPermanentRedirect {
		return http.ErrUseLastResponse // answered as the error it is
	}
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	req.Header.Del("Referer")
	if to := origin(req.URL); to != origin(via[0].URL) {
		return &redirectRefused{to: to}
	}
	return nil
}

// redirectRefused is an S3 request redirected to another endpoint.
type redirectRefused struct{ to string }

func (e *redirectRefused) Error() string {
	return "the server redirected the request to another endpoint (" + e.to + "); evalview does not send AWS credentials there (set AWS_REGION to the bucket's region, or AWS_ENDPOINT_URL_S3 to that endpoint if it is the store's)"
}

// RetryableError tells the SDK's retryer not to ask again: the answer
// would be the same redirect.
func (e *redirectRefused) RetryableError() bool { return false }

// bucketRegion is the region S3 says the bucket is in ("" when it does
// not say): HeadBucket's answer, or the header of its redirect or refusal.
func (s *s3Store) bucketRegion(ctx context.Context) string {
	out, err := s.c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: &s.bucket})
	if err == nil {
		return aws.ToString(out.BucketRegion)
	}
	var re *awshttp.ResponseError
	if errors.As(err, &re) && re.Response != nil && re.Response.Response != nil {
		return re.Response.Header.Get("X-Amz-Bucket-Region")
	}
	return ""
}

func (s *s3Store) url(key string) string {
	if key == "" {
		return "s3://" + s.bucket
	}
	return "s3://" + s.bucket + "/" + key
}

// fail words an SDK error for the user.
func (s *s3Store) fail(op, key string, err error) error {
	name := s.url(key)
	code, status := "", 0
	var ae smithy.APIError
	if errors.As(err, &ae) {
		code = ae.ErrorCode()
	}
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		status = re.HTTPStatusCode()
	}
	var rr *redirectRefused
	switch {
	case errors.As(err, &rr):
		return pathErr(op, name, rr.Error(), err)
	case errors.Is(err, errListingTooBig):
		return pathErr(op, name, fmt.Sprintf("a page of the bucket's listing holds over %s (stopped there; name a deeper prefix)", sizeWords(MaxListing)), err)
	case status == http.StatusMovedPermanently:
		where := ""
		if re != nil && re.Response != nil && re.Response.Response != nil {
			where = re.Response.Header.Get("X-Amz-Bucket-Region")
		}
		if where == "" {
			return pathErr(op, name, "the bucket is in another region (HTTP 301): set AWS_REGION to it", err)
		}
		return pathErr(op, name, fmt.Sprintf("the bucket is in %s, not the region asked (HTTP 301): set AWS_REGION=%s", where, where), err)
	case status == http.StatusNotFound || code == "NoSuchKey" || code == "NotFound" || code == "NoSuchBucket":
		what := "not found"
		if code == "NoSuchBucket" {
			what = "no such bucket"
		}
		return pathErr(op, name, what, fs.ErrNotExist)
	case status == http.StatusForbidden || status == http.StatusUnauthorized || code == "AccessDenied":
		return pathErr(op, name, fmt.Sprintf("forbidden (HTTP %d %s; sent %s)", status, code, s.cred), fs.ErrPermission)
	case status == http.StatusPreconditionFailed:
		return pathErr(op, name, ErrChanged.Error(), ErrChanged)
	case status == http.StatusTooManyRequests || code == "SlowDown":
		return pathErr(op, name, fmt.Sprintf("rate limited (HTTP %d; retried %d times with backoff)", status, Attempts-1), err)
	case status >= 500:
		return pathErr(op, name, fmt.Sprintf("server error (HTTP %d %s; retried %d times with backoff)", status, code, Attempts-1), err)
	case status != 0:
		return pathErr(op, name, fmt.Sprintf("failed (HTTP %d %s)", status, code), err)
	}
	return pathErr(op, name, netWhat(err), err)
}

// first is a GET of the object's first block: its answer tells the
// size (Content-Range) and version as HeadObject's would, in the same
// round trip. An empty object has no first byte (416): HeadObject then.
func (s *s3Store) first(ctx context.Context, key string) (meta, []byte, error) {
	rctx, cancel := context.WithCancel(ctx)
	idle := newIdle(cancel)
	out, err := s.c.GetObject(rctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &key, Range: aws.String(fmt.Sprintf("bytes=0-%d", blockSize-1))})
	if err != nil {
		idle.stop()
		cancel()
		if idle.fired.Load() {
			return meta{}, nil, pathErr("stat", s.url(key), netWhat(errIdle), errIdle)
		}
		var re *awshttp.ResponseError
		if errors.As(err, &re) && re.HTTPStatusCode() == http.StatusRequestedRangeNotSatisfiable {
			m, err := s.head(ctx, key)
			return m, nil, err
		}
		return meta{}, nil, s.fail("stat", key, err)
	}
	b := newBody(out.Body, cancel, idle)
	defer b.Close()
	m := meta{size: aws.ToInt64(out.ContentLength), version: aws.ToString(out.ETag)}
	if m.version != "" {
		m.vkind = "ETag"
	}
	if cr := aws.ToString(out.ContentRange); cr != "" {
		first, last, total, ok := contentRange(cr)
		if !ok || total < 0 {
			return meta{}, nil, pathErr("stat", s.url(key), "the server gave no size (Content-Range "+strconv.Quote(cr)+")", errors.New("no size"))
		}
		if want := min(total, blockSize) - 1; first != 0 || last != want {
			err := &badAnswer{fmt.Sprintf("the server answered bytes %d-%d for bytes 0-%d asked (Content-Range %s)", first, last, want, strconv.Quote(cr))}
			return meta{}, nil, pathErr("stat", s.url(key), err.what, err)
		}
		if out.ContentLength != nil && *out.ContentLength != last+1 {
			err := &badAnswer{fmt.Sprintf("the server's answer holds %d bytes for the %d of the range it names", *out.ContentLength, last+1)}
			return meta{}, nil, pathErr("stat", s.url(key), err.what, err)
		}
		m.size = total
	}
	if out.ContentLength == nil && out.ContentRange == nil || m.size < 0 {
		return meta{}, nil, pathErr("stat", s.url(key), fmt.Sprintf("the server gave a bad size (%d)", m.size), errors.New("bad size"))
	}
	if out.LastModified != nil {
		m.mod = *out.LastModified
	}
	head := make([]byte, min(m.size, blockSize))
	b.want = int64(len(head))
	_, err = io.ReadFull(b, head)
	if err == nil && int64(len(head)) == m.size {
		err = b.finish()
	}
	if err != nil {
		if !again(err) {
			return meta{}, nil, pathErr("stat", s.url(key), netWhat(err), err)
		}
		return m, nil, nil // the size and version stand; the head is read again
	}
	return m, head, nil
}

func (s *s3Store) head(ctx context.Context, key string) (meta, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	out, err := s.c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.bucket, Key: &key})
	if err != nil {
		return meta{}, s.fail("stat", key, err)
	}
	m := meta{size: aws.ToInt64(out.ContentLength), version: aws.ToString(out.ETag)}
	if m.version != "" {
		m.vkind = "ETag"
	}
	if out.ContentLength == nil || m.size < 0 {
		return meta{}, pathErr("stat", s.url(key), fmt.Sprintf("the server gave a bad size (%d)", m.size), errors.New("bad size"))
	}
	if out.LastModified != nil {
		m.mod = *out.LastModified
	}
	return m, nil
}

func (s *s3Store) stream(ctx context.Context, key string, off, n int64, m meta) (io.ReadCloser, error) {
	rctx, cancel := context.WithCancel(ctx)
	idle := newIdle(cancel)
	in := &s3.GetObjectInput{Bucket: &s.bucket, Key: &key, Range: aws.String(fmt.Sprintf("bytes=%d-%d", off, off+n-1))}
	if m.version != "" {
		in.IfMatch = aws.String(m.version)
	}
	out, err := s.c.GetObject(rctx, in)
	if err != nil {
		idle.stop()
		cancel()
		if idle.fired.Load() {
			return nil, pathErr("read", s.url(key), netWhat(errIdle), errIdle)
		}
		return nil, s.fail("read", key, err)
	}
	b := newBody(out.Body, cancel, idle)
	if err := s.answers(out, off, n, m); err != nil {
		b.Close()
		return nil, pathErr("read", s.url(key), netWhat(err), err)
	}
	b.want = n
	return b, nil
}

// answers checks a GetObject answer against the range asked of an object
// first answered as m: the same version (S3-compatible stores need not
// honour If-Match), the range asked of an object of the same size, as
// many bytes as that. The SDK asks for the bytes as stored (identity), so
// a Content-Encoding is the object's own.
func (s *s3Store) answers(out *s3.GetObjectOutput, off, n int64, m meta) error {
	if v := aws.ToString(out.ETag); m.version != "" && v != m.version {
		if v == "" {
			return fmt.Errorf("%w: the file changed or the server stopped saying which version it serves (the first answer gave its ETag, this one none)", ErrChanged)
		}
		return ErrChanged
	}
	cr := aws.ToString(out.ContentRange)
	first, last, total, ok := contentRange(cr)
	switch {
	case !ok || total < 0:
		return &badAnswer{"the server gave no size or a broken one (Content-Range " + strconv.Quote(cr) + ")"}
	case total != m.size:
		return fmt.Errorf("%w (its size is now %d bytes, was %d)", ErrChanged, total, m.size)
	case first != off || last != off+n-1:
		return &badAnswer{fmt.Sprintf("the server answered bytes %d-%d for bytes %d-%d asked (Content-Range %s)", first, last, off, off+n-1, strconv.Quote(cr))}
	case out.ContentLength != nil && *out.ContentLength != n:
		return &badAnswer{fmt.Sprintf("the server's answer holds %d bytes for the %d of the range it names", *out.ContentLength, n)}
	}
	return nil
}

// capListing bounds what the SDK reads of a listing's answer to
// MaxListing bytes: past it, the read fails with errListingTooBig (the
// SDK would otherwise decode a page of any size into memory).
var capListing = func(stack *middleware.Stack) error {
	return stack.Deserialize.Add(middleware.DeserializeMiddlewareFunc("evalviewCapListing",
		func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleDeserialize(ctx, in)
			if resp, ok := out.RawResponse.(*smithyhttp.Response); ok && resp.Body != nil {
				resp.Body = &cappedBody{rc: resp.Body, left: MaxListing + 1}
			}
			return out, md, err
		}), middleware.After)
}

var errListingTooBig = errors.New("listing too big")

// cappedBody fails a read that goes past its bound.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
}

func (c *cappedBody) Read(p []byte) (int, error) {
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.rc.Read(p)
	if c.left -= int64(n); c.left <= 0 {
		return n, errListingTooBig
	}
	return n, err
}

func (c *cappedBody) Close() error { return c.rc.Close() }

// s3PageKeys is how many keys a listing asks for a page (0: the server's
// default, 1000 on S3); tests ask for fewer.
var s3PageKeys int32

func (s *s3Store) list(ctx context.Context, key string) ([]entry, error) {
	prefix := ""
	if key != "" {
		prefix = strings.TrimSuffix(key, "/") + "/"
	}
	var out []entry
	var token *string
	for pages := 0; ; pages++ {
		if pages == maxPages {
			return nil, pathErr("list", s.url(key), fmt.Sprintf("the listing goes on past %d pages (stopped there; name a deeper prefix)", maxPages), errors.New("too many pages"))
		}
		lctx, cancel := context.WithTimeout(ctx, Timeout)
		in := &s3.ListObjectsV2Input{Bucket: &s.bucket, Prefix: &prefix, Delimiter: aws.String("/"), ContinuationToken: token}
		if s3PageKeys > 0 {
			in.MaxKeys = aws.Int32(s3PageKeys)
		}
		page, err := s.c.ListObjectsV2(lctx, in, func(o *s3.Options) { o.APIOptions = append(o.APIOptions, capListing) })
		cancel()
		if err != nil {
			return nil, s.fail("list", key, err)
		}
		for _, p := range page.CommonPrefixes {
			n := strings.TrimSuffix(strings.TrimPrefix(aws.ToString(p.Prefix), prefix), "/")
			out = append(out, entry{name: n, dir: true})
		}
		for _, o := range page.Contents {
			n := strings.TrimPrefix(aws.ToString(o.Key), prefix)
			if n == "" {
				continue // a folder marker
			}
			e := entry{name: n, meta: meta{size: aws.ToInt64(o.Size), version: aws.ToString(o.ETag)}}
			if o.LastModified != nil {
				e.mod = *o.LastModified
			}
			out = append(out, e)
		}
		if !aws.ToBool(page.IsTruncated) || page.NextContinuationToken == nil || len(out) > MaxEntries {
			break // all, or more than is read (listed says so)
		}
		token = page.NextContinuationToken
	}
	if len(out) == 0 {
		return nil, pathErr("list", s.url(key), "not found (no object under this prefix)", fs.ErrNotExist)
	}
	return out, nil
}
